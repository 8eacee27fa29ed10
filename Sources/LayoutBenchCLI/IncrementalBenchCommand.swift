import ArgumentParser
import BackendContract
import FloatSimplex
import Foundation
import Generator
import Reporting
import SolverBenchmarks
#if canImport(Glibc)
import Glibc
#endif

/// `layoutbench bench-incremental`: the incremental workloads through the `float` backend's
/// ``CassowarySolver`` and, with `--kiwi`, through kiwisolver (kiwi's C++ core) driven by
/// `scripts/kiwi/run.sh`, side by side: time and answers.
struct IncrementalBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-incremental",
        abstract: "Benchmark the incremental Cassowary solver (and kiwi) on chains, trees, grids, cells, a form and resizing.",
        discussion: """
            Times adding every constraint (the best of as many runs as fit in 0.2 s, at least 10 where they fit in 2 s, at most 100), making edit variables, and \
            suggestions (each followed by reading every value). Cells use one solver per cell; \
            the form is kiwi's enaml-like dialog shape. The last table gives each workload's \
            growth exponent, the slope of log(time) against log(size). Build with -c release.

            By default both sides run on a warm heap: glibc is told not to hand freed memory \
            back to the system (M_TRIM_THRESHOLD, M_TOP_PAD) and to serve blocks of up to 32 \
            MiB from the heap rather than from fresh mappings (M_MMAP_THRESHOLD); the same \
            values through MALLOC_TRIM_THRESHOLD_, MALLOC_TOP_PAD_ and MALLOC_MMAP_THRESHOLD_ \
            for kiwi's process. Otherwise a short workload such as 1,000 cells is timed mostly \
            as page faults: each run frees everything it built, glibc trims the heap (and \
            unmaps every array over 128 KiB), and the next run faults the same pages in \
            again. --no-warm-heap measures with the allocator's defaults.
            """)

    @Option(help: "Sizes (views; cells for `cells`), comma-separated.")
    var sizes = PositiveIntegers([100, 1000, 10000])

    @Option(help: "Workloads, comma-separated: chain, tree, grid, cells, form, resize.")
    var workloads: String = "chain,tree,grid,cells,form,resize"

    @Option(help: "Generator families (seed 1) instead of the workloads: float's one-shot solve beside its core adding the same rows, and kiwi adding them.")
    var families: String?

    @Flag(help: "Also run kiwi through scripts/kiwi/run.sh (installs kiwisolver from PyPI if missing).")
    var kiwi = false

    @Option(help: "The kiwi driver script.")
    var kiwiScript: String = "scripts/kiwi/run.sh"

    @Option(help: "Seconds kiwi may spend on one workload's additions (and again on its suggestions).")
    var kiwiTimeLimit: Double = 120

    @Flag(inversion: .prefixedNo, help: "Keep freed memory in both processes between timed runs (see above).")
    var warmHeap = true

    @Option(help: "Instead of the workloads: update-sequence families (comma-separated, or 'all') timed per step (see --views, --steps).")
    var sequences: String?

    @Option(help: "With --sequences: layout sizes in views, comma-separated.")
    var views = PositiveIntegers([100, 1000])

    @Option(help: "With --sequences: steps per sequence.")
    var steps: Int = 10_000

    @Option(help: "With --sequences: the base family whose layout the steps change (a family may name its own).")
    var base: String = "form"

    @Option(help: "With --sequences: the seed.")
    var seed: UInt64 = 1

    /// glibc's trim threshold and top pad for a warm heap (bytes).
    static let trimThreshold: Int32 = 1 << 30
    static let topPad: Int32 = 64 << 20
    /// The largest block glibc serves from the heap instead of its own mapping (bytes): its
    /// ceiling on 64-bit systems. Below it, the arrays of a 10,000-view solve (a few MiB
    /// each) are reused from run to run like small blocks; above glibc's default of 128 KiB
    /// each was mapped afresh and faulted in page by page in every run.
    static let mmapThreshold: Int32 = 32 << 20

    struct Row {
        var workload: IncrementalWorkload.Kind
        var size: Int
        var float: IncrementalMeasurement
        var kiwi: KiwiBridge.Reply?
    }

    func validate() throws {
        guard steps > 0 else { throw ValidationError("--steps must be a positive whole number") }
        guard kiwiTimeLimit.isFinite, kiwiTimeLimit > 0 else { throw ValidationError("--kiwi-time-limit must be a positive number of seconds") }
    }

    mutating func run() throws {
        if let sequences {
            if warmHeap { Self.keepFreedMemory() }
            return try runSequences(sequences)
        }
        let sizeList = sizes.values
        let kinds = try workloads.split(separator: ",").map { name -> IncrementalWorkload.Kind in
            guard let kind = IncrementalWorkload.Kind(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("unknown workload \(name)")
            }
            return kind
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-kiwi-\(getpid())")
        if kiwi { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        defer { if kiwi { try? FileManager.default.removeItem(at: directory) } }

        if warmHeap { Self.keepFreedMemory() }
        print(warmHeap
            ? "heap: warm on both sides (glibc keeps freed memory; --no-warm-heap for the allocator's defaults)"
            : "heap: the allocator's defaults (freed memory may go back to the system between runs)")
        if let families {
            try runFamilies(try FamilySelection.parse(families), sizes: sizeList, directory: directory)
            return
        }
        print(Self.header)
        var rows: [Row] = []
        for kind in kinds {
            let kindSizes: [Int] = switch kind {
            case .form: [3]
            case .cells: sizeList.filter { $0 >= 1000 }.isEmpty ? sizeList : sizeList.filter { $0 >= 1000 }
            default: sizeList
            }
            for size in kindSizes {
                let workload = IncrementalWorkload.make(kind, size: size)
                let float = IncrementalBenchmark.run(workload)
                var kiwiResult: KiwiBridge.Reply?
                if kiwi {
                    let file = directory.appendingPathComponent("\(workload.name).json")
                    try KiwiBridge.encode(KiwiBridge.WorkloadDocument(workload)).write(to: file, options: .atomic)
                    kiwiResult = try runKiwi(file)
                }
                let row = Row(workload: kind, size: size, float: float, kiwi: kiwiResult)
                print(line(row))
                rows.append(row)
            }
        }
        print()
        print(exponents(rows))
    }

    /// One generated case per family and size: float's one-shot solve (lowering, every row,
    /// values, objective, ambiguity) beside its incremental core adding the same rows in the
    /// same order, and kiwi adding them; then growth exponents. Each side best of runs.
    func runFamilies(_ chosen: [Family], sizes: [Int], directory: URL) throws {
        print("family              views  constraints |    core add    one-shot  one-shot/core |    kiwi add  kiwi/one-shot | max |Δ| kiwi")
        var points: [String: [(size: Int, core: Double, oneShot: Double, kiwi: Double?)]] = [:]
        for family in chosen {
            for size in sizes {
                let generated = generate(family: family, size: size, seed: 1)
                // The one-shot first: the core adds the rows in the order the solve ended up
                // using (the walk's where it started again in it).
                let oneShot: (seconds: Double, result: BackendResult, order: [Int])?
                do {
                    oneShot = try IncrementalBenchmark.oneShot(generated.system)
                } catch {
                    guard case BackendError.unsupported = error else { throw error }
                    oneShot = nil
                }
                guard let oneShot, let workload = IncrementalWorkload.adding(
                    generated.system, name: "\(family.name)-\(size)",
                    order: oneShot.order)
                else {
                    print("\(family.name) \(size): numbers beyond Double range")
                    continue
                }
                let core = IncrementalBenchmark.run(workload)
                var kiwiSeconds: Double?
                var kiwiText = "-"
                var delta = "-"
                if kiwi {
                    let file = directory.appendingPathComponent("\(workload.name).json")
                    try KiwiBridge.encode(KiwiBridge.WorkloadDocument(workload)).write(to: file, options: .atomic)
                    let k = try runKiwi(file)
                    if let k, !k.timedOut {
                        kiwiSeconds = k.addSeconds
                        if let values = k.values, values.count == oneShot.result.solution.values.count {
                            delta = String(format: "%.3g", zip(values, oneShot.result.solution.values).map { abs($0 - $1) }.max() ?? 0)
                        }
                        if let rejected = k.rejected, rejected > 0 { delta += " (\(rejected) rejected)" }
                    }
                    kiwiText = kiwiSeconds.map(ms) ?? (k == nil ? "failed" : String(format: "> %.0f s", kiwiTimeLimit))
                }
                var text = pad(family.name, 19) + pad("\(generated.system.viewCount)", 7, right: true)
                text += pad("\(workload.constraints.count)", 13, right: true) + " | "
                // Columns of 12: a time of 1,000 ms or more (11 characters) still has a space before it.
                text += pad(ms(core.addSeconds), 12, right: true) + pad(ms(oneShot.seconds), 12, right: true)
                text += pad(String(format: "%.2f×", oneShot.seconds / core.addSeconds), 15, right: true) + " | "
                text += pad(kiwiText, 12, right: true)
                text += pad(kiwiSeconds.map { String(format: "%.2f×", $0 / oneShot.seconds) } ?? "-", 15, right: true)
                text += " | " + delta
                print(text)
                points[family.name, default: []].append((generated.system.viewCount, core.addSeconds, oneShot.seconds, kiwiSeconds))
            }
        }
        print()
        print("growth exponents (slope of log time vs log views):")
        for family in chosen {
            guard let rows = points[family.name], rows.count >= 2 else { continue }
            func slope(_ seconds: [(Int, Double)]) -> String {
                growthExponentText(seconds)
            }
            let kiwiPoints = rows.compactMap { row in row.kiwi.map { (row.size, $0) } }
            print("  \(pad(family.name, 19)) one-shot \(slope(rows.map { ($0.size, $0.oneShot) }))   core \(slope(rows.map { ($0.size, $0.core) }))   kiwi \(kiwiPoints.count == rows.count ? slope(kiwiPoints) : "-")")
        }
    }

    /// glibc's `mallopt(M_TRIM_THRESHOLD, …)`, `mallopt(M_TOP_PAD, …)` and
    /// `mallopt(M_MMAP_THRESHOLD, …)`, looked up at run
    /// time (the Glibc module does not export `<malloc.h>`); nothing elsewhere.
    static func keepFreedMemory() {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let trimThreshold: Int32 = -1, topPad: Int32 = -2, mmapThreshold: Int32 = -3   // M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD
        _ = mallopt(trimThreshold, Self.trimThreshold)
        _ = mallopt(topPad, Self.topPad)
        _ = mallopt(mmapThreshold, Self.mmapThreshold)
        #endif
    }

    func runKiwi(_ file: URL) throws -> KiwiBridge.Reply? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [kiwiScript, "--time-limit", String(kiwiTimeLimit), file.path]
        if warmHeap {
            var environment = ProcessInfo.processInfo.environment
            environment["MALLOC_TRIM_THRESHOLD_"] = String(Self.trimThreshold)
            environment["MALLOC_TOP_PAD_"] = String(Self.topPad)
            environment["MALLOC_MMAP_THRESHOLD_"] = String(Self.mmapThreshold)
            process.environment = environment
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return try KiwiBridge.decodeReply(data)
    }

    static let header = """
        workload  size  constraints |   float add   µs/c | kiwi add       µs/c  kiwi/float | edit float / kiwi | per suggestion float / kiwi | max |Δ| answers
        """

    func line(_ row: Row) -> String {
        let f = row.float
        var text = pad(row.workload.rawValue, 9) + pad("\(row.size)", 6, right: true) + pad("\(f.constraintCount)", 13, right: true)
        text += " | " + pad(ms(f.addSeconds), 11, right: true) + pad(String(format: "%.2f", f.addSeconds * 1e6 / Double(max(1, f.constraintCount))), 7, right: true)
        if let k = row.kiwi, let add = k.addSeconds {
            let timedOut = k.timedOut
            let added = k.added ?? f.constraintCount
            text += " | " + pad((timedOut ? ">" : "") + ms(add), 11, right: true)
            text += pad(String(format: "%.2f", add * 1e6 / Double(max(1, added))), 8, right: true)
            text += pad(timedOut ? "> \(String(format: "%.0f", add / f.addSeconds))×" : String(format: "%.1f×", add / f.addSeconds), 12, right: true)
            let kiwiEdit = k.editSeconds.map(ms) ?? "-"
            text += " | " + pad(f.suggestionCount > 0 ? ms(f.editSeconds) + " / " + kiwiEdit : "-", 17)
            let kiwiSuggestions = k.suggestions ?? 0
            let kiwiPer = kiwiSuggestions > 0 ? String(format: "%.1f µs", (k.suggestSeconds ?? 0) * 1e6 / Double(kiwiSuggestions)) : "-"
            text += " | " + pad(f.suggestionCount > 0 ? perSuggestion(f) + " / " + kiwiPer : "-", 27)
            if let values = k.values, values.count == f.values.count, !timedOut {
                let delta = zip(values, f.values).map { abs($0 - $1) }.max() ?? 0
                text += " | " + String(format: "%.3g", delta)
            } else {
                text += " | -"
            }
        } else {
            text += " | " + pad("-", 11, right: true) + pad("", 8) + pad("", 12)
            text += " | " + pad(f.suggestionCount > 0 ? ms(f.editSeconds) : "-", 17)
            text += " | " + pad(f.suggestionCount > 0 ? perSuggestion(f) : "-", 27)
        }
        return text
    }

    func perSuggestion(_ f: IncrementalMeasurement) -> String {
        String(format: "%.1f µs", f.suggestSeconds * 1e6 / Double(max(1, f.suggestionCount)))
    }

    func exponents(_ rows: [Row]) -> String {
        var text = "growth exponents (slope of log time vs log size; additions, or per suggestion for resize):\n"
        for kind in IncrementalWorkload.Kind.allCases where kind != .form {
            let mine = rows.filter { $0.workload == kind }
            guard mine.count >= 2 else { continue }
            let floatPoints = mine.map { (size: $0.size, seconds: kind == .resize ? $0.float.suggestSeconds : $0.float.addSeconds) }
            let kiwiPoints: [(size: Int, seconds: Double)] = mine.compactMap { row in
                guard let k = row.kiwi, !k.timedOut else { return nil }
                let seconds = kind == .resize ? k.suggestSeconds : k.addSeconds
                return seconds.map { (row.size, $0) }
            }
            let f = growthExponentText(floatPoints.map { ($0.size, $0.seconds) })
            let k = growthExponentText(kiwiPoints.map { ($0.size, $0.seconds) })
            text += "  \(pad(kind.rawValue, 8)) float \(f)   kiwi \(k)\n"
        }
        return text
    }

    /// The least-squares slope of log time against log size (Reporting's `GrowthFit`), or "-".
    func growthExponentText(_ points: [(Int, Double)]) -> String {
        GrowthFit(points: points.map { (size: Double($0.0), time: $0.1) }).map { String(format: "%.2f", $0.exponent) } ?? "-"
    }

    func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1e3) }

    func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - s.count))
        return right ? padding + s : s + padding
    }
}
