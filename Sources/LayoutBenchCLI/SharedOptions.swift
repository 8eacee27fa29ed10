import ArgumentParser
import BackendContract
import Foundation
import LayoutModel

// Options that several commands take with one meaning, declared once (`@OptionGroup`), so
// their names, defaults, help and checks cannot drift apart.

/// `--backend`: the backends `bench` and `fuzz` run.
struct BackendSelection: ParsableArguments {
    @Option(help: "Comma-separated backends, or all (the built-in ones and the installed outside solvers).")
    var backend: String = "all"

    /// The chosen backends; an unknown name is a usage error.
    func chosen() throws -> [any LayoutBackend] { try BackendRegistry.select(backend) }
}

/// `--jobs` and `--quiet`: how `bench` and `fuzz` run their cases.
struct WorkerOptions: ParsableArguments {
    @Option(help: "Worker threads (default: the number of cores; for timings, 1 is the quietest).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "No progress on stderr.")
    var quiet = false

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    /// The progress display these options ask for (none with `--quiet`).
    func progressDisplay(timeLimit: Duration? = nil) -> ProgressDisplay {
        ProgressDisplay(enabled: !quiet, timeLimit: timeLimit)
    }
}

/// `--rules`: the validation rules a `.layout` file is read under.
struct ValidationRulesOption: ParsableArguments {
    @Option(help: "runtime (V1–V5, what UIKit enforces) or guide (adds V6: position attributes take multiplier 1).")
    var rules: ValidationRules = .runtime
}

/// `--time-limit`: how long `solve-lp` and `bench-netlib` let one backend work on one problem.
struct LPTimeLimit: ParsableArguments {
    @Option(help: "Give up on a problem after this many seconds (per backend).")
    var timeLimit = Seconds(600)
}

/// What a command prints: text for people, or JSON.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `--format text|json`: how `history findings` and `history steps` print.
struct TextOrJSONOption: ParsableArguments {
    @Option(help: "text or json.")
    var format: OutputFormat = .text
}

/// `--seed`: where the project's seeded generator starts (`fuzz`, `generate`, `vfl-diff`).
struct SeedOption: ParsableArguments {
    @Option(help: "The seed (a 64-bit unsigned integer); the same seed gives the same cases on every machine.")
    var seed: UInt64 = 1
}
