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

/// A comma-separated list of positive whole numbers given on the command line (`--sizes
/// 10,100,1000`).
///
/// Parsed by ArgumentParser like any typed option, so `--sizes 0`, `--sizes 10,x` or an
/// empty list is a usage error naming the option, never a list with the bad parts dropped.
struct PositiveIntegers: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    let values: [Int]

    init(_ values: [Int]) {
        precondition(!values.isEmpty && values.allSatisfy { $0 > 0 })
        self.values = values
    }

    init?(argument: String) {
        var values: [Int] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Int(part.trimmingCharacters(in: .whitespaces)), value > 0 else { return nil }
            values.append(value)
        }
        guard !values.isEmpty else { return nil }
        self.values = values
    }

    var description: String { values.map(String.init).joined(separator: ",") }
    var defaultValueDescription: String { description }
}
