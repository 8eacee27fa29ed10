import BackendContract
import ExactArithmetic
import ExactSimplex
import Foundation
import LayoutModel
import Testing

@Suite("Workloads")
struct WorkloadTests {
    @Test("chains, trees and grids solve to their known answers", arguments: Workload.allCases)
    func known(_ workload: Workload) throws {
        let system = try parse(workload.layout(views: 30))
        let (solution, _) = try solveCertified(system)
        #expect(solution.status == .optimal)
        #expect(solution.ambiguous.isEmpty)
        switch workload {
        case .chain:
            // v[i].x = 8 + 58 i, every width 50.
            #expect(exactValue(solution, system, "v29", .x) == Rational(8 + 58 * 29))
            #expect(solution.exactObjective == ["0"])
        case .tree:
            #expect(exactValue(solution, system, "v0", .w) == Rational(1_000_000 - 16))
            // v1 and v2 split v0's content width (v0.w − 16) less a gap of 8.
            #expect(exactValue(solution, system, "v1", .w) == Rational(numerator: 1_000_000 - 16 - 16 - 8, denominator: 2))
        case .grid:
            #expect(exactValue(solution, system, "g4_4", .w) == 50)
            #expect(exactValue(solution, system, "g4_4", .h) == 30)
            #expect(solution.exactObjective == ["0", "10"])
        }
    }

    /// Figures for the closing note: run with LAYOUTBENCH_BENCH_DIR set (see
    /// scripts/qsopt/bench.sh), ideally in release. Writes each workload's layout, the LP of
    /// its last level for esolver, and one CSV line per solve with time, pivots and bit widths.
    @Test("benchmark (only with LAYOUTBENCH_BENCH_DIR)",
          .enabled(if: ProcessInfo.processInfo.environment["LAYOUTBENCH_BENCH_DIR"] != nil))
    func benchmark() throws {
        let directory = URL(fileURLWithPath: ProcessInfo.processInfo.environment["LAYOUTBENCH_BENCH_DIR"] ?? ".")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let sizes = (ProcessInfo.processInfo.environment["LAYOUTBENCH_BENCH_SIZES"] ?? "10,100,1000")
            .split(separator: ",").compactMap { Int($0) }
        var csv = ["workload,views,constraints,seconds,pivots,refactorizations,numerator_bits,denominator_bits,determinacy_lps,status"]
        for workload in Workload.allCases {
            for size in sizes {
                let text = workload.layout(views: size)
                let system = try parse(text)
                let name = "\(workload.rawValue)-\(size)"
                try text.write(to: directory.appendingPathComponent("\(name).layout"), atomically: true, encoding: .utf8)
                let levels = system.optionalLevels.count
                let lp = try LevelProgramExport.export(system, level: levels, format: .lp)
                try lp.write(to: directory.appendingPathComponent("\(name).lp"), atomically: true, encoding: .utf8)
                // Best of three, to damp the noise of a shared machine.
                var best: Duration?
                var report: ExactSolveReport?
                for _ in 0..<3 {
                    let clock = ContinuousClock()
                    var r: ExactSolveReport?
                    let elapsed = try clock.measure { r = try ExactSimplexBackend().solveWithReport(system, budget: .unlimited) }
                    if best == nil || elapsed < best ?? elapsed { best = elapsed }
                    report = r
                }
                let r = try #require(report)
                #expect(r.result.solution.status == .optimal)
                let seconds = Double((best ?? .zero).components.attoseconds) / 1e18 + Double((best ?? .zero).components.seconds)
                csv.append("\(workload.rawValue),\(system.viewCount),\(system.constraints.count),\(seconds),\(r.result.statistics.iterations),\(r.refactorizations),\(r.bitWidths.numerator),\(r.bitWidths.denominator),\(r.determinacyPrograms),\(r.result.solution.status.rawValue)")
            }
        }
        try (csv.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("exact.csv"), atomically: true, encoding: .utf8)
    }
}

@Suite("LP export")
struct LevelProgramExportTests {
    @Test("the LP of a level states our optimum and holds the levels above")
    func levels() throws {
        let system = try parse("""
            root superview 375 667
            view box
            box.leading == superview.leading + 20
            box.top == superview.top + 20
            box.height == 40
            box.width == 100 @251
            box.width == 0.5 * box.height @250
            """)
        let lp = try LevelProgramExport.export(system, level: 2, format: .lp)
        #expect(lp.contains("\\ layoutbench: level 2 optimum 80"))
        #expect(lp.contains("level1: p_r4 + n_r4 <= 0"))
        #expect(lp.contains("- 1/2 v_box_h"))
        let mps = try LevelProgramExport.export(system, level: 0, format: .mps)
        #expect(mps.contains("* layoutbench: level 0 feasible"))
        #expect(mps.contains(" FR bnd v_box_x"))
        #expect(throws: BackendError.self) { try LevelProgramExport.export(system, level: 3, format: .lp) }
    }

    /// For scripts/qsopt/compare.sh: with LAYOUTBENCH_EXPORT_DIR set, writes the LP of
    /// every level of every seed and of generated systems.
    @Test("export LPs for esolver (only with LAYOUTBENCH_EXPORT_DIR)",
          .enabled(if: ProcessInfo.processInfo.environment["LAYOUTBENCH_EXPORT_DIR"] != nil))
    func exportForComparison() throws {
        let directory = URL(fileURLWithPath: ProcessInfo.processInfo.environment["LAYOUTBENCH_EXPORT_DIR"] ?? ".")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var systems: [(String, String)] = []
        let seeds = (try? FileManager.default.contentsOfDirectory(atPath: Repository.seeds.path)) ?? []
        for file in seeds.sorted() where file.hasSuffix(".layout") {
            systems.append((String(file.dropLast(7)), try String(contentsOf: Repository.seeds.appendingPathComponent(file), encoding: .utf8)))
        }
        for seed in 0..<200 { systems.append(("random-\(seed)", randomLayout(seed: UInt64(5000 + seed)))) }
        for (name, text) in systems {
            guard let system = try? LayoutParser.parse(text) else { continue }
            for level in 0...system.optionalLevels.count {
                let lp = try LevelProgramExport.export(system, level: level, format: level % 2 == 0 ? .lp : .lp)
                try lp.write(to: directory.appendingPathComponent("\(name)-level\(level).lp"), atomically: true, encoding: .utf8)
            }
        }
    }
}
