internal import CGMP

/// An owned GMP rational (`mpq_t`) on the heap, cleared when the last reference goes.
///
/// `Rational` keeps one of these only for canonical values whose numerator or denominator
/// does not fit in `Int64`.
///
/// `@unchecked Sendable` is sound because a box is immutable once any `Rational` can see
/// it: every operation writes its result into a fresh box, and the only in-place writes
/// (`Rational.formInPlace`) happen after `isKnownUniquelyReferenced` proved that no other
/// value, on any thread, holds the box. Concurrent readers therefore only ever call GMP's
/// read-only functions on it, which are thread-safe.
@usableFromInline
final class MPQ: @unchecked Sendable {
    /// Stable for the box's lifetime: GMP keeps no pointer to the struct, but we hand this
    /// address to every call, so it is allocated once rather than stored inline.
    let pointer: UnsafeMutablePointer<__mpq_struct>

    /// A new rational equal to 0/1.
    init() {
        pointer = .allocate(capacity: 1)
        lb_mpq_init(pointer)
    }

    deinit {
        lb_mpq_clear(pointer)
        pointer.deallocate()
    }

    var numerator: mpz_srcptr { lb_mpq_numref_const(pointer) }
    var denominator: mpz_srcptr { lb_mpq_denref_const(pointer) }
}

/// Runs `body` with a scratch `mpz_t` that is cleared afterwards, so no path can leak it.
func withTemporaryMPZ<R>(_ body: (mpz_ptr) throws -> R) rethrows -> R {
    var value = __mpz_struct()
    return try withUnsafeMutablePointer(to: &value) { z in
        lb_mpz_init(z)
        defer { lb_mpz_clear(z) }
        return try body(z)
    }
}
