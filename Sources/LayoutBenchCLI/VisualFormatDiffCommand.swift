import ArgumentParser
import Foundation
import OutsideSolvers
import VisualFormatDifferential

/// `layoutbench vfl-diff --lines N --seed S [--out FILE]`: LayoutBench's VFL parser and
/// lowering against GTK 4's own VFL parser (docs/outside-solvers.md, "The VFL differential").
struct VisualFormatDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vfl-diff",
        abstract: "Compare LayoutBench's VFL with GTK 4's VFL parser over seeded generated lines; print the agreement table.")

    @Option(help: "How many lines to generate.")
    var lines: Int = 10_000

    @OptionGroup var seeding: SeedOption

    @Option(help: "Write the reduced disagreements to this file, one JSON object a line.")
    var out: String?

    @Option(help: "GTK's VFL helper (default: scripts/solvers/gtk/build/gtk_vfl beside the solvers' manifest).")
    var gtkVfl: String?

    func validate() throws {
        guard lines >= 0 else { throw ValidationError("--lines must be at least 0") }
        if let gtkVfl {
            // A helper named on the command line that is not there is a usage error, not the
            // "GTK is not installed" of the default location.
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: gtkVfl, isDirectory: &isDirectory), !isDirectory.boolValue,
                  FileManager.default.isExecutableFile(atPath: gtkVfl)
            else { throw ValidationError("--gtk-vfl: no executable file at \(gtkVfl)") }
        }
    }

    func run() throws {
        guard let gtk = gtkVfl.map(GtkVisualFormatParser.init(executable:)) ?? GtkVisualFormatParser.located(), gtk.isInstalled else {
            printError("vfl-diff: GTK's VFL helper is not built (scripts/install-outside-solvers.sh: libgtk-4-dev, libjson-glib-dev)")
            throw ExitStatus.unsupported
        }
        defer { gtk.close() }
        let report = VisualFormatDifferential(lines: lines, seed: seeding.seed).run(gtk: gtk)
        print(report.table, terminator: "")
        if let out {
            do {
                try report.disagreementLines.write(toFile: out, atomically: true, encoding: .utf8)
            } catch {
                printError("\(out): cannot write: \(error.localizedDescription)")
                throw ExitStatus.internalFailure
            }
        }
    }
}
