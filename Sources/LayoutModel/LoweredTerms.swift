/// One row's terms while lowering writes, sorts and merges them: at most
/// ``LoweredTerms/capacity``, stored inline.
///
/// Each side of a constraint writes at most three terms (a position, a size, its ancestor's
/// origin), so a row has at most six before merging. Kept in an array, every term written
/// checked the buffer's capacity and uniqueness, and emptying it for the next row went
/// through `replaceSubrange`: with the copy out, a third of a `Double` lowering.
///
/// Complexity: every operation is O(1) but ``sortAndMerge()``, O(count²) on at most eight.
@usableFromInline
struct LoweredTerms<Scalar: LinearScalar>: RandomAccessCollection {
    /// Two more than a row can need.
    @inlinable static var capacity: Int { 8 }

    @usableFromInline var storage: InlineArray<8, LinearTerm<Scalar>>
    @usableFromInline var count = 0

    @inlinable
    init() {
        storage = InlineArray(repeating: LinearTerm(variable: 0, coefficient: .zero))
    }

    @inlinable var startIndex: Int { @inline(__always) get { 0 } }
    @inlinable var endIndex: Int { @inline(__always) get { count } }

    @inlinable
    subscript(position: Int) -> LinearTerm<Scalar> {
        @inline(__always) get { storage[position] }
        @inline(__always) set { storage[position] = newValue }
    }

    @inlinable @inline(__always)
    mutating func append(_ term: LinearTerm<Scalar>) {
        precondition(count < Self.capacity, "a lowered row has at most six terms")
        storage[count] = term
        count += 1
    }

    @inlinable @inline(__always)
    mutating func removeAll() { count = 0 }

    /// The terms in an array of their own, by a plain loop: unspecialised (before the
    /// lowering was `@inlinable`), `Array(_:)` took the generic sequence path, 10,600
    /// instructions a row of `table-cells`, half of the exact backend's lowering.
    @inlinable
    var array: [LinearTerm<Scalar>] {
        var result: [LinearTerm<Scalar>] = []
        result.reserveCapacity(count)
        for index in 0..<count { result.append(storage[index]) }
        return result
    }

    /// Sorts the terms by variable, stably (an insertion sort: a dozen terms at most), then
    /// sums the terms of each variable in the order they were written and drops the zeros:
    /// a rounding scalar such as `Double` rounds the same way whatever wrote them.
    @inlinable
    mutating func sortAndMerge() {
        for i in 1..<Swift.max(count, 1) {
            let term = storage[i]
            var j = i
            while j > 0 && storage[j - 1].variable > term.variable {
                storage[j] = storage[j - 1]
                j -= 1
            }
            storage[j] = term
        }
        var kept = 0
        var i = 0
        while i < count {
            var term = storage[i]
            i += 1
            while i < count && storage[i].variable == term.variable {
                term.coefficient = term.coefficient + storage[i].coefficient
                i += 1
            }
            if !term.coefficient.isZero {
                storage[kept] = term
                kept += 1
            }
        }
        count = kept
    }
}
