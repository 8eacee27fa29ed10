import Foundation
import Testing

/// GTK's VFL helper, built by scripts/install-outside-solvers.sh.
enum GtkVisualFormatHelper {
    static let path = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/solvers/gtk/build/gtk_vfl").path
}

/// `layoutbench vfl-diff` through the built executable (GTK's VFL helper must be built).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: GtkVisualFormatHelper.path),
                "GTK's VFL helper is not built (scripts/install-outside-solvers.sh: libgtk-4-dev, libjson-glib-dev)"))
struct VisualFormatDiffCommandTests {
    @Test func printsTheTableAndWritesTheReducedDisagreements() throws {
        let out = try SequenceCommandTests.file("disagreements.jsonl", "")
        let run = try SequenceCommandTests.run(["vfl-diff", "--lines", "40", "--seed", "5", "--out", out, "--gtk-vfl", GtkVisualFormatHelper.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix("VFL differential: 40 lines, seed 5, LayoutBench vs GTK 4."))
        // Each class row ends with its count and share; the counts add up to the lines.
        let counts = run.output.split(separator: "\n").prefix { !$0.isEmpty }.dropFirst()
            .compactMap { $0.split(separator: " ").dropLast().last.flatMap { Int($0) } }
        #expect(counts.reduce(0, +) == 40)
        let written = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        for line in written {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["class"] is String && object?["line"] is String && object?["seed"] as? String == "5")
        }
        #expect(run.output.contains("Reduced disagreements (\(written.count))") || written.isEmpty)
    }
}

/// `vfl-diff` given a helper that is not there: a usage error naming the option (exit 2); the
/// default location's missing helper is "not built", exit 3, as for a backend that declines.
struct VisualFormatDiffWithoutGtkTests {
    @Test func aNamedHelperThatIsNotThereIsAUsageError() throws {
        let run = try SequenceCommandTests.run(["vfl-diff", "--lines", "1", "--gtk-vfl", "/nonexistent/gtk_vfl"])
        #expect(run.status == 2)
        #expect(run.error.contains("--gtk-vfl: no executable file at /nonexistent/gtk_vfl"))
    }
}
