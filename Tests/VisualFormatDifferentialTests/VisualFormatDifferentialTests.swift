import Foundation
import OutsideSolvers
import Testing
@testable import VisualFormatDifferential

/// GTK's VFL helper, built by scripts/install-outside-solvers.sh beside the GTK adapter.
enum GtkHelper {
    static let path = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/solvers/gtk/build/gtk_vfl").path
    static var installed: Bool { FileManager.default.isExecutableFile(atPath: path) }
}

struct LayoutBenchSideTests {
    @Test func theGeneratorIsSeeded() {
        var first = LineGenerator(seed: 7), again = LineGenerator(seed: 7), other = LineGenerator(seed: 8)
        let a = (0..<50).map { _ in first.next() }
        #expect(a == (0..<50).map { _ in again.next() })
        #expect(a != (0..<50).map { _ in other.next() })
        #expect(a.contains { $0.hasPrefix("V:") } && a.contains { $0.contains("-(") })
    }

    @Test func meaningIgnoresWhichSideATermIsOn() {
        // b.leading >= a.trailing + 8 is a.trailing <= b.leading - 8; not a.trailing >= b.leading - 8.
        let ours = CanonicalConstraint(target: "b", targetAttribute: "leading", relation: ">=", source: "a",
                                       sourceAttribute: "trailing", constant: 8, strength: .required)
        let swapped = CanonicalConstraint(target: "a", targetAttribute: "trailing", relation: "<=", source: "b",
                                          sourceAttribute: "leading", constant: -8, strength: .required)
        var flipped = swapped
        flipped.relation = ">="
        #expect(ours.meaning == swapped.meaning)
        #expect(ours.meaning != flipped.meaning)
        #expect(ours.description == "b.leading >= a.trailing + 8 @required")
    }

    @Test func layoutBenchReadsTheLineInItsFile() {
        let reading = LayoutBenchReading.read("H:|-20-[a(>=50@750)]")
        #expect(reading.constraints?.map(\.description) == [
            "a.leading == super.leading + 20 @required", "a.width >= 50 @750",
        ])
        #expect(LayoutBenchReading.read("H:[a]-[zz]") == .rejected("column 8: undeclared item 'zz'"))
        #expect(LayoutBenchReading.column(of: LayoutBenchReading.read("H:[a]-[zz]")) == 8)
    }

    @Test func theReducerTokenizesTheLine() {
        #expect(LineReducer.tokenize("H:|-(>=8@750)-[top_bar(==b)]").map(String.init) == [
            "H", ":", "|", "-", "(", ">=", "8", "@", "750", ")", "-", "[", "top_bar", "(", "==", "b", ")", "]",
        ])
    }
}

@Suite(.enabled(if: GtkHelper.installed,
                "GTK's VFL helper is not built (scripts/install-outside-solvers.sh: libgtk-4-dev, libjson-glib-dev)"))
struct GtkDifferentialTests {
    let gtk = GtkVisualFormatParser(executable: GtkHelper.path)

    @Test func gtkAnswersWithItsConstraintsOrItsError() {
        guard case .constraints(let list, _) = gtk.parse("H:[a]-8-[b]", views: ["a", "b"]) else {
            Issue.record("GTK rejected a plain line")
            return
        }
        #expect(list == [GtkVisualFormatConstraint(target: "a", targetAttribute: "end", relation: "==", source: "b",
                                                   sourceAttribute: "start", multiplier: 1, constant: -8,
                                                   strength: GtkVisualFormatConstraint.requiredStrength)])
        guard case .rejected(_, let message, _) = gtk.parse("[zz]", views: ["a"]) else {
            Issue.record("GTK accepted an unknown view")
            return
        }
        #expect(message.hasPrefix("0:2: Unable to find view with name 'zz'"))
        #expect(gtk.version?.hasPrefix("4.") == true)
    }

    /// One hand-picked line for every class.
    @Test(arguments: [
        ("H:[a(==b)]", Agreement.identical),
        ("[a(50)]", .identical),
        ("H:[a]-8-[b]", .sameMeaning),
        ("V:[a][b]|", .sameMeaning),
        ("H:|-[a]", .documented([.superviewSpacing])),
        ("[a(50@750)]", .documented([.priorityScale])),
        ("H:|-[a(50@250)]-|", .documented([.superviewSpacing, .priorityScale])),
        ("H:[a]-8-[b] align top", .documented([.alignSuffix])),
        ("[a(==b*2)]", .documented([.gtkExtension])),
        ("[a(==b.height)]", .documented([.gtkExtension])),
        ("[a(50@strong)]", .documented([.gtkExtension])),
        ("[a(50@high)]", .documented([.layoutBenchPriorityNames, .priorityScale])),
        ("[zz]", .bothReject),
        ("[a", .bothReject),
        ("[top_bar]", .onlyGtkRejects),
        ("[a]-(>=8,<=20)-[b]", .onlyGtkRejects),
        ("[a]-(-5)-[b]", .onlyGtkRejects),
        ("[a]x[b]", .onlyLayoutBenchRejects),
        ("|[a]|[b]", .onlyLayoutBenchRejects),
        ("[a(50@0)]", .onlyLayoutBenchRejects),
        ("|-|", .onlyLayoutBenchRejects),
        ("[a]-(>=8)-[b]", .differentMeaning),
        ("[a(50@1000)]", .differentMeaning),
        ("[a(50@750.5)]", .differentMeaning),
        // Named priorities written as numbers for GTK, then GTK's relation flip.
        ("[a]-(>=0@high)-|", .differentMeaning),
    ])
    func classifies(_ line: String, _ expected: Agreement) {
        var classifier = Classifier(gtk: gtk)
        let (agreement, lb, g) = classifier.classify(line)
        #expect(agreement == expected, "\(line): LayoutBench \(lb); GTK \(g)")
    }

    @Test func aSmallDifferentialClassifiesEveryLineAndReducesEveryDisagreement() {
        let report = VisualFormatDifferential(lines: 200, seed: 3).run(gtk: gtk)
        #expect(report.counts.values.reduce(0, +) == 200)
        #expect((report.counts[.identical] ?? 0) + (report.counts[.sameMeaning] ?? 0) > 0)
        #expect(report.counts.keys.contains { if case .documented = $0 { return true } else { return false } })
        #expect(report.disagreements.map(\.count).reduce(0, +)
            == report.counts.filter { $0.key.isDisagreement }.map(\.value).reduce(0, +))
        var classifier = Classifier(gtk: gtk)
        for d in report.disagreements {
            #expect(classifier.agreement(d.line) == d.agreement, "\(d.line)")
            #expect(classifier.agreement(d.example) == d.agreement, "\(d.example)")
            #expect(d.line.count <= d.example.count)
        }
        // GTK's relation flip in connection predicates is there and reduced to a few characters.
        #expect(report.disagreements.contains { $0.agreement == .differentMeaning && $0.line.count <= 14 })
        #expect(report.table.contains("identical") && report.table.contains("Reduced disagreements"))
    }
}
