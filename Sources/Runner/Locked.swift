import Foundation

/// A value behind a lock, for state the runner's worker threads share.
///
/// `Synchronization.Mutex` would do, but on Linux it waits on bare futexes, which Thread
/// Sanitizer does not recognise as synchronisation, so every access it guards is reported as
/// a race. `NSLock` is a pthread mutex that TSan understands, which keeps `scripts/tsan.sh`
/// meaningful.
public final class Locked<Value>: @unchecked Sendable {
    // Sound: `value` is only ever touched while `lock` is held.
    private var value: Value
    private let lock = NSLock()

    public init(_ value: Value) { self.value = value }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
