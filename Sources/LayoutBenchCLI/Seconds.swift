import ArgumentParser
import Runner

/// A positive, finite number of seconds given on the command line.
///
/// Every time option goes through this type, so `nan`, `inf`, negative and absurdly large
/// values are usage errors with the option's name rather than traps in the conversion to a
/// `Duration` (issue 18: `--time-limit nan` used to crash).
struct Seconds: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    /// The largest accepted value (``CommandLineNumbers/maximumSeconds``).
    static let maximum = CommandLineNumbers.maximumSeconds

    let value: Double

    init(_ value: Double) {
        precondition(value.isFinite && value > 0 && value <= Self.maximum)
        self.value = value
    }

    init?(argument: String) {
        guard let value = CommandLineNumbers.seconds(argument) else { return nil }
        self.value = value
    }

    static var defaultCompletionKind: CompletionKind { .default }

    var duration: Duration { CommandLineNumbers.duration(seconds: value) }

    var description: String {
        value == value.rounded() ? String(Int64(value)) : String(value)
    }
}
