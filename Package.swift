// swift-tools-version: 6.1
import PackageDescription

// The module graph follows the data flow:
// Arithmetic → LayoutModel, and Arithmetic + CGMP → ExactArithmetic → BackendContract → one module per backend
// (GaussianBackend, ExactSimplex, FloatSimplex) → Generator → Fuzzing → Reporting → Runner → CLI.
// Planted faults (the fuzzer's self-tests) exist only in debug builds: every hook is inside
// `#if LAYOUTBENCH_FAULTS`, so a release binary carries none of them.
let plantedFaults: [SwiftSetting] = [.define("LAYOUTBENCH_FAULTS", .when(configuration: .debug))]

let package = Package(
    name: "LayoutBench",
    products: [
        .executable(name: "layoutbench", targets: ["LayoutBenchMain"]),
        .library(name: "LayoutModel", targets: ["LayoutModel"]),
        .library(name: "ExactArithmetic", targets: ["ExactArithmetic"]),
        .library(name: "BackendContract", targets: ["BackendContract"]),
        .library(name: "GaussianBackend", targets: ["GaussianBackend"]),
        .library(name: "ExactSimplex", targets: ["ExactSimplex"]),
        .library(name: "FloatSimplex", targets: ["FloatSimplex"]),
        .library(name: "SolverBenchmarks", targets: ["SolverBenchmarks"]),
        .library(name: "Generator", targets: ["Generator"]),
        .library(name: "Fuzzing", targets: ["Fuzzing"]),
        .library(name: "Reporting", targets: ["Reporting"]),
        .library(name: "Runner", targets: ["Runner"]),
        .library(name: "InterfaceBuilder", targets: ["InterfaceBuilder"]),
        .library(name: "OutsideSolvers", targets: ["OutsideSolvers"]),
        .library(name: "History", targets: ["History"]),
        .library(name: "MathematicalProgramming", targets: ["MathematicalProgramming"]),
        .library(name: "ExactLP", targets: ["ExactLP"]),
        .library(name: "GuidedFuzzing", targets: ["GuidedFuzzing"]),
        .library(name: "VisualFormatDifferential", targets: ["VisualFormatDifferential"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // The number types every layer shares: decimal literals read exactly, and the scalar
        // protocol lowering is generic over. A leaf: no dependencies.
        .target(name: "Arithmetic"),
        // The `.layout` format, VFL, validation, lowering to linear rows, results.
        .target(name: "LayoutModel", dependencies: ["Arithmetic"]),
        // GMP from the system (libgmp-dev), with C shims for the macros Swift cannot import.
        .systemLibrary(
            name: "CGMP",
            pkgConfig: "gmp",
            providers: [.apt(["libgmp-dev"])]
        ),
        // Exact rationals: an Int64 fast path that falls back to GMP's mpq_t.
        .target(name: "ExactArithmetic", dependencies: ["CGMP", "Arithmetic"]),
        // The protocol every backend implements, budgets and statistics.
        .target(name: "BackendContract", dependencies: ["LayoutModel"], swiftSettings: plantedFaults),
        // The naive baseline: dense Gaussian elimination, required equalities only.
        .target(name: "GaussianBackend", dependencies: ["BackendContract", "LayoutModel"], swiftSettings: plantedFaults),
        // The exact reference: rational simplex with certificates.
        .target(
            name: "ExactSimplex", dependencies: ["BackendContract", "LayoutModel", "ExactArithmetic"], swiftSettings: plantedFaults),
        // Checks the exact backend's certificates; shares no code with the simplex.
        .target(name: "CertificateChecker", dependencies: ["LayoutModel", "ExactArithmetic"]),
        // Incremental Cassowary simplex in Double with lexicographic priorities.
        .target(
            name: "FloatSimplex",
            dependencies: [
                "BackendContract", "LayoutModel", "ExactArithmetic", "SeededRandom",
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: plantedFaults),
        // The incremental benchmark's workloads, their timing through the float core, and the
        // JSON documents kiwi's driver (scripts/kiwi/driver.py) reads.
        .target(name: "SolverBenchmarks", dependencies: ["FloatSimplex", "BackendContract", "LayoutModel"]),
        // Interface Builder files (.xib, .storyboard) → systems with the frames Xcode stored.
        .target(name: "InterfaceBuilder", dependencies: ["LayoutModel"]),
        // Child processes with pipes, started by posix_spawn and reaped by their owner alone.
        .target(name: "ChildProcesses", dependencies: ["CProcessControl"]),
        // prctl(2) for ChildProcesses: Swift cannot call a variadic C function.
        .target(name: "CProcessControl"),
        // Solvers outside LayoutBench (kiwisolver, z3, HiGHS, …) through adapter processes
        // speaking JSON lines (docs/outside-solvers.md).
        .target(
            name: "OutsideSolvers",
            dependencies: ["BackendContract", "LayoutModel", "ExactArithmetic", "ChildProcesses", "ExactSimplex"]
        ),
        // LayoutBench's VFL against GTK 4's own VFL parser over seeded lines (`vfl-diff`).
        .target(name: "VisualFormatDifferential", dependencies: ["LayoutModel", "Generator", "OutsideSolvers"]),
        // General linear programs with exact data, and the MPS reader (docs/netlib.md).
        .target(name: "MathematicalProgramming", dependencies: ["ExactArithmetic", "ChildProcesses", "LayoutModel"]),
        // The exact simplex as a general LP solver with certificates, and their checker.
        .target(name: "ExactLP", dependencies: ["MathematicalProgramming", "ExactArithmetic", "ExactSimplex"]),
        // Seeded generator of realistic, random and pathological systems.
        // The project's one source of randomness: SplitMix64 seeding xoshiro256**.
        .target(name: "SeededRandom"),
        .target(name: "Generator", dependencies: ["LayoutModel", "SeededRandom"]),
        // The judge (comparator, backward-error verdicts, reference checks), oracles, reducer,
        // campaigns, corpus replay.
        .target(
            name: "Fuzzing",
            dependencies: ["LayoutModel", "BackendContract", "ExactArithmetic", "ExactSimplex", "CertificateChecker", "Generator"],
            swiftSettings: plantedFaults),
        // The coverage-guided fuzzer's logic, without libFuzzer: bytes ↔ valid systems, the
        // structural mutator, the judge. The libFuzzer harness is its own package (Fuzz/).
        .target(
            name: "GuidedFuzzing",
            dependencies: ["LayoutModel", "BackendContract", "ExactSimplex", "FloatSimplex", "GaussianBackend", "Fuzzing", "Generator"],
            swiftSettings: plantedFaults),
        // Versioned report documents and their renderings (HTML, Markdown, terminal).
        .target(name: "Reporting"),
        // Parallel workers, isolation, sharding, checkpoints; bench and fuzz at scale.
        .target(
            name: "Runner",
            dependencies: [
                "LayoutModel", "BackendContract", "Generator", "Fuzzing", "Reporting", "ChildProcesses",
                "InterfaceBuilder",  // real app layouts: `bench --suite apps`, `fuzz --seeds`
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // The nightly history: every run, bench row and finding in one SQLite file (GRDB);
        // finding states across runs, change points of bench series, the trend page.
        .target(name: "History", dependencies: ["Reporting", .product(name: "GRDB", package: "GRDB.swift")]),
        // Every subcommand, as a library: the shipped `layoutbench` (LayoutBenchMain) and the
        // tests' test bed (LayoutBenchTestbed) are both this code with a different `main`.
        .target(
            name: "LayoutBenchCLI",
            dependencies: [
                "LayoutModel", "ExactArithmetic", "BackendContract", "GaussianBackend",
                "ExactSimplex", "CertificateChecker", "FloatSimplex", "SolverBenchmarks", "Generator", "Fuzzing", "Reporting",
                "Runner", "InterfaceBuilder",
                "OutsideSolvers", "History", "MathematicalProgramming", "ExactLP", "GuidedFuzzing",
                "VisualFormatDifferential",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // `guided findings --planted-fault` (debug builds only).
            swiftSettings: plantedFaults
        ),
        // The `layoutbench` executable: the command line and nothing else.
        .executableTarget(name: "LayoutBenchMain", dependencies: ["LayoutBenchCLI"]),
        // `layoutbench` plus backends that trap or hang on purpose, for the runner's isolation
        // tests (its workers re-execute this binary, so they have them too). Test code, kept out
        // of the shipped binary: no product names it, so `swift build --product layoutbench` and
        // a release build of the product never build it; `swift build --build-tests` does.
        .executableTarget(
            name: "LayoutBenchTestbed", dependencies: ["LayoutBenchCLI", "BackendContract", "ExactSimplex", "LayoutModel"],
            path: "Tests/LayoutBenchTestbed"
        ),
        .testTarget(
            name: "LayoutModelTests",
            dependencies: [
                "LayoutModel", "ExactArithmetic", "Generator",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Runs the built `layoutbench` (validate, print, solve) and checks output and exit status.
        .testTarget(name: "LayoutBenchCLITests", dependencies: ["LayoutModel"]),
        .testTarget(name: "ExactArithmeticTests", dependencies: ["ExactArithmetic", "SeededRandom"]),
        .testTarget(name: "SeededRandomTests", dependencies: ["SeededRandom"]),
        .testTarget(name: "GaussianBackendTests", dependencies: ["GaussianBackend", "LayoutModel", "BackendContract", "Generator"]),
        .testTarget(
            name: "ExactSimplexTests",
            dependencies: ["ExactSimplex", "CertificateChecker", "LayoutModel", "BackendContract", "ExactArithmetic", "Generator"]
        ),
        .testTarget(
            name: "FloatSimplexTests",
            dependencies: [
                "FloatSimplex", "SolverBenchmarks", "ExactSimplex", "LayoutModel", "BackendContract", "ExactArithmetic", "Generator",
            ],
            swiftSettings: plantedFaults
        ),
        .testTarget(name: "SolverBenchmarksTests", dependencies: ["SolverBenchmarks", "FloatSimplex", "LayoutModel"]),
        .testTarget(name: "GeneratorTests", dependencies: ["Generator", "LayoutModel", "GaussianBackend", "BackendContract"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "SeededRandom"], exclude: ["Snapshots"]),
        .testTarget(
            name: "RunnerTests",
            dependencies: [
                "Runner", "Fuzzing", "Generator", "LayoutModel", "BackendContract", "ExactSimplex", "GaussianBackend", "Reporting",
                "ChildProcesses", "FloatSimplex",
            ]
        ),
        .testTarget(
            name: "OutsideSolversTests",
            dependencies: [
                "OutsideSolvers", "Fuzzing", "Runner", "Generator", "LayoutModel", "BackendContract", "ExactSimplex",
                "ExactArithmetic", "ChildProcesses",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "VisualFormatDifferentialTests", dependencies: ["VisualFormatDifferential", "OutsideSolvers"]),
        .testTarget(
            name: "InterfaceBuilderTests",
            dependencies: ["InterfaceBuilder", "LayoutModel", "BackendContract", "ExactSimplex", "Generator"]
        ),
        .testTarget(
            name: "HistoryTests",
            dependencies: ["History", "Reporting", "SeededRandom", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "FuzzingTests",
            dependencies: [
                "Fuzzing", "LayoutModel", "BackendContract", "GaussianBackend", "ExactSimplex", "FloatSimplex", "ExactArithmetic",
                "Generator", "CertificateChecker",
            ],
            swiftSettings: plantedFaults
        ),
        .testTarget(
            name: "GuidedFuzzingTests",
            dependencies: ["GuidedFuzzing", "Fuzzing", "LayoutModel", "Generator", "BackendContract"],
            swiftSettings: plantedFaults
        ),
        .testTarget(name: "ExactLPTests", dependencies: ["ExactLP", "ExactSimplex", "MathematicalProgramming", "ExactArithmetic"]),
    ],
    swiftLanguageModes: [.v6]
)

// The coverage-guided fuzzer (libFuzzer): only when LAYOUTBENCH_FUZZ is set, which
// scripts/fuzz-guided.sh does for its own scratch path (.build-fuzz, `-sanitize=fuzzer`).
// The normal build and the release binary never see this target.
if Context.environment["LAYOUTBENCH_FUZZ"] != nil {
    package.targets += [
        .systemLibrary(name: "CFuzzerHooks", path: "Fuzz/CFuzzerHooks"),
        .executableTarget(
            name: "GuidedFuzzer", dependencies: ["GuidedFuzzing", "BackendContract", "CFuzzerHooks"], path: "Fuzz/GuidedFuzzer",
            swiftSettings: plantedFaults),
    ]
    package.products += [.executable(name: "guided-fuzzer", targets: ["GuidedFuzzer"])]
}

