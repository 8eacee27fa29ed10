import ArgumentParser
import FloatSimplex
import Foundation
import Generator
import LayoutModel
import SolverBenchmarks

extension IncrementalBenchCommand {
    /// `--sequences`: per-step latency of the float backend's incremental path over long
    /// update sequences, beside a from-scratch float solve of the same passes and, with
    /// `--kiwi`, kiwisolver given the same row-level steps and the float core given those
    /// row steps too (the same work on both sides: no step replay, lowering or §5.1 walk).
    func runSequences(_ names: String) throws {
        let families = names == "all" ? SequenceFamilies.all : try names.split(separator: ",").map { name in
            guard let family = SequenceFamilies.named(name.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("unknown sequence family \(name); known: \(SequenceFamilies.all.map(\.name).joined(separator: ", "))")
            }
            return family
        }
        guard let baseFamily = Families.named(base) else { throw ValidationError("unknown family \(base)") }
        let sizeList = views.values
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-kiwi-\(getpid())")
        if kiwi { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        defer { if kiwi { try? FileManager.default.removeItem(at: directory) } }
        print("per pass (one step each for most families), µs: p50 / p99 / max; first pass: building the incremental solver from the initial system; from scratch: float CassowaryBackend on sampled passes, mean")
        print("family              views constraints passes | float incremental p50/p99/max | first ms | scratch ms | scratch/p50 | kiwi p50/p99/max | kiwi/float p50 | float row steps p50/p99/max | kiwi/rows p50 | storage first→last | RSS MB first→last | pivots | p50 first→last tenth")
        for family in families {
            for size in sizeList {
                guard let generated = generateSequence(family: family, base: baseFamily, size: size, steps: steps, seed: seed) else {
                    print("\(family.name): the base layout cannot start a sequence")
                    continue
                }
                let measurement = try SequenceBenchmark.run(generated.sequence, recordRowSteps: kiwi)
                var line = pad(family.name, 20) + pad("\(size)", 6, right: true)
                line += pad("\(generated.sequence.initial.constraints.count)", 12, right: true)
                line += pad("\(generated.sequence.passCount)", 7, right: true)
                let float = Percentiles(measurement.passSeconds)
                line += " | " + pad(float.text, 29)
                line += " | " + pad(String(format: "%.3f", measurement.firstPassSeconds * 1e3), 8, right: true)
                let scratch = measurement.scratchSeconds.reduce(0, +) / Double(max(measurement.scratchSeconds.count, 1))
                line += " | " + pad(String(format: "%.3f", scratch * 1e3), 10, right: true)
                line += " | " + pad(String(format: "%.0f×", scratch / max(float.p50, 1e-12)), 11, right: true)
                if kiwi {
                    let file = directory.appendingPathComponent("\(family.name)-\(size).json")
                    try KiwiBridge.encode(KiwiBridge.SequenceDocument(name: family.name, rowSteps: measurement.rowSteps))
                        .write(to: file, options: .atomic)
                    // The float core on kiwi's own input: the same row steps, values read into an array.
                    let rows = Percentiles(try SequenceBenchmark.rowStepSeconds(measurement.rowSteps).seconds)
                    if let result = try runKiwi(file), let seconds = result.passSeconds, seconds.count > 1 {
                        let k = Percentiles(Array(seconds.dropFirst()))
                        line += " | " + pad(k.text + (result.timedOut ? " (timeout)" : ""), 16)
                        line += " | " + pad(String(format: "%.2f×", k.p50 / max(float.p50, 1e-12)), 14, right: true)
                        line += " | " + pad(rows.text, 27)
                        line += " | " + pad(String(format: "%.2f×", k.p50 / max(rows.p50, 1e-12)), 13, right: true)
                    } else {
                        line += " | " + pad("failed", 16) + " | " + pad("-", 14, right: true)
                        line += " | " + pad(rows.text, 27) + " | " + pad("-", 13, right: true)
                    }
                } else {
                    line += " | " + pad("-", 16) + " | " + pad("-", 14, right: true) + " | " + pad("-", 27) + " | " + pad("-", 13, right: true)
                }
                if let first = measurement.storage.first, let last = measurement.storage.last {
                    line += " | \(first.storage)→\(last.storage)"
                    if let a = first.residentBytes, let b = last.residentBytes {
                        line += String(format: " | %.1f→%.1f", Double(a) / 1_048_576, Double(b) / 1_048_576)
                    }
                }
                line += String(format: " | %.1f pivots/pass", Double(measurement.pivots) / Double(max(measurement.passSeconds.count, 1)))
                // Drift: the median pass of the first and of the last tenth of the run.
                let tenth = measurement.passSeconds.count / 10
                if tenth > 0 {
                    let first = Percentiles(Array(measurement.passSeconds.prefix(tenth))).p50
                    let last = Percentiles(Array(measurement.passSeconds.suffix(tenth))).p50
                    line += " | p50 first→last tenth \(Percentiles.micro(first))→\(Percentiles.micro(last))"
                }
                if measurement.unsatisfiablePasses > 0 { line += "  (\(measurement.unsatisfiablePasses) passes unsatisfiable)" }
                print(line)
            }
        }
    }
}

/// p50, p99 and max of a list of seconds.
struct Percentiles {
    var p50: Double
    var p99: Double
    var max: Double

    init(_ seconds: [Double]) {
        let sorted = seconds.sorted()
        func at(_ q: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))] }
        p50 = at(0.5)
        p99 = at(0.99)
        max = sorted.last ?? 0
    }

    /// µs, two decimals below 10 µs (a pass at 10 views takes well under one).
    var text: String { "\(Self.micro(p50)) / \(Self.micro(p99)) / \(Self.micro(max))" }

    static func micro(_ seconds: Double) -> String {
        String(format: seconds < 1e-5 ? "%.2f" : "%.1f", seconds * 1e6)
    }
}
