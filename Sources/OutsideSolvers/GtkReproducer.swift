import BackendContract
import ExactArithmetic
import Foundation
import LayoutModel

/// The `gtk` reproducer style: a standalone C program against GTK 4 alone
/// (`FINGERPRINT.repro.c`) and a script that builds it with `pkg-config gtk4` and runs it
/// under `xvfb-run` (`FINGERPRINT.repro.sh`). The program makes the `GtkConstraint`s the
/// adapter makes (scripts/solvers/gtk/gtk_adapter.c: one child per view, rows grouped into
/// GTK attributes, sizes shifted by 10⁵ px, strength 10⁶ × priority), one call per row with
/// the constraint it came from in a comment, allocates, and checks the allocation by GTK's
/// own semantics against the exact expectation written into it: the required rows it drops
/// (violated beyond the rounding), every kept required row, and the optimum of GTK's weighted
/// objective. It prints `BUG: …` and exits 1 while the bug shows, `OK` and 0 once it does not.
extension Reproducer {
    static let gtkSizeOffset = Rational(100_000)

    func gtkFiles(_ system: ConstraintSystem, _ expectation: ReproducerExpectation) -> [ReproducerFile] {
        let lowered = system.lowered(as: Rational.self)
        let views = (lowered.variableCount + 3) / 4
        var calls: [String] = []
        var table: [String] = []
        for (index, row) in lowered.rows.enumerated() {
            let priority = row.level == 0 ? Priority.required : lowered.levels[row.level - 1]
            let source = system.constraintLine(system.constraints[row.constraintIndex])
            calls.append("    /* row \(index), \(system.constraintName(row.constraintIndex)): \(source) */")
            calls.append("    /*   \(Self.readable(row, names: [])) @\(priority.value) */")
            calls.append("    " + (Self.gtkCall(row, priority: priority) ?? "/* no GtkConstraint: decided without GTK (it has no unknowns or too many attributes) */"))
            let terms = row.terms.prefix(4)
            let variables = terms.map { String($0.variable) } + Array(repeating: "0", count: 4 - terms.count)
            let coefficients = terms.map { Self.cDouble($0.coefficient) } + Array(repeating: "0", count: 4 - terms.count)
            let relation = row.relation == .equal ? 0 : (row.relation == .lessThanOrEqual ? -1 : 1)
            table.append("    {\(terms.count), {\(variables.joined(separator: ", "))}, {\(coefficients.joined(separator: ", "))}, \(Self.cDouble(row.constant)), \(relation), \(priority.value)},")
        }
        let scale: String
        if case .weighted(let mapping) = capabilities.priorities { scale = mapping.weight(of: .required).scale.description } else { scale = "1" }
        let objective = expectation.objective.first.flatMap(Rational.init).map { Self.cDouble($0) } ?? "NAN"
        var c: [String] = []
        c.append("/* Reproducer for GTK \(version) (GtkConstraintLayout), written by LayoutBench.")
        c.append(" * Finding: " + expectation.finding.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "*/", with: "* /"))
        c.append(" * Build and run: sh THIS.repro.sh (cc $(pkg-config --cflags gtk4) ... under xvfb-run).")
        c.append(" * Unknown v is view v/4's x, y, width, height (v%4), in the container's coordinates.")
        c.append(" * Sizes are shifted by 100000 px in GTK (width_gtk = width + 100000) so that GTK's own")
        c.append(" * `width >= 0` of a child never binds; strengths are 1000000 x priority.")
        c.append(" * Prints BUG lines and exits 1 while the bug is there; prints OK and exits 0 once fixed. */")
        c.append(Self.gtkPrelude)
        c.append("#define NVIEWS \(max(views, 1))")
        c.append("#define NVARS \(lowered.variableCount)")
        c.append("#define SCALE \(scale).0")
        c.append("static const double EXPECTED_OBJECTIVE = \(objective); /* exact optimum of sum(SCALE*priority*error) */")
        c.append("static const int EXPECTED_REJECTED[] = {" + (expectation.broken.map(String.init) + ["-1"]).joined(separator: ", ") + "};")
        c.append("static const double BOUND = \(expectation.bound);")
        c.append("static const Row ROWS[] = {")
        c.append(contentsOf: table)
        c.append("};")
        c.append("")
        c.append("static void add_constraints(void) {")
        c.append(contentsOf: calls)
        c.append("}")
        c.append(Self.gtkMain)
        let script = """
            #!/bin/sh
            # Builds and runs the GTK reproducer beside this script (needs libgtk-4-dev and xvfb).
            set -e
            here=$(dirname "$0")
            base=$(basename "$0" .repro.sh)
            out=$(mktemp)
            cc $(pkg-config --cflags gtk4) -o "$out" "$here/$base.repro.c" $(pkg-config --libs gtk4) -lm
            status=0
            GTK_A11Y=none xvfb-run -a "$out" || status=$?
            rm -f "$out"
            exit $status

            """
        return [ReproducerFile(suffix: "repro.c", contents: c.joined(separator: "\n") + "\n", executable: false),
                ReproducerFile(suffix: "repro.sh", contents: script, executable: true)]
    }

    static func cDouble(_ value: Rational) -> String {
        let d = value.doubleValue
        return d == d.rounded() && abs(d) < 1e15 ? String(format: "%.1f", d) : String(format: "%.17g", d)
    }

    /// The row as the adapter's `gtk_constraint_new` call, or nil when it has none.
    static func gtkCall(_ row: LinearRow<Rational>, priority: Priority) -> String? {
        guard let attributes = GtkRowMapping.attributes(of: row) else { return nil }
        var constant = row.constant
        for a in attributes { constant -= a.coefficient * a.sizePart * gtkSizeOffset }
        let a = attributes[0].coefficient
        var relation = row.relation
        if a.sign < 0 { relation = relation == .lessThanOrEqual ? .greaterThanOrEqual : (relation == .greaterThanOrEqual ? .lessThanOrEqual : .equal) }
        let relationName = relation == .equal ? "EQ" : (relation == .lessThanOrEqual ? "LE" : "GE")
        let strength = priority == .required ? "GTK_CONSTRAINT_STRENGTH_REQUIRED" : "(int)(1000000.0 * \(priority.value))"
        let target = "VIEW(\(attributes[0].view)), GTK_CONSTRAINT_ATTRIBUTE_\(attributes[0].name)"
        if attributes.count == 1 {
            return "add(gtk_constraint_new_constant(\(target), GTK_CONSTRAINT_RELATION_\(relationName), \(cDouble(-constant / a)), \(strength)));"
        }
        return "add(gtk_constraint_new(\(target), GTK_CONSTRAINT_RELATION_\(relationName), VIEW(\(attributes[1].view)), GTK_CONSTRAINT_ATTRIBUTE_\(attributes[1].name), \(cDouble(-attributes[1].coefficient / a)), \(cDouble(-constant / a)), \(strength)));"
    }

    static let gtkPrelude = """
        #include <gtk/gtk.h>
        #include <math.h>
        #include <stdio.h>
        #include <unistd.h>

        typedef struct { int n; int var[4]; double coef[4]; double constant; int rel; double priority; } Row;
        static GtkWidget *views[1024];
        static GtkLayoutManager *layout;
        #define VIEW(i) GTK_CONSTRAINT_TARGET(views[i])
        static void add(GtkConstraint *c) { gtk_constraint_layout_add_constraint(GTK_CONSTRAINT_LAYOUT(layout), c); }
        static double error(double value, int rel) { return rel == 0 ? fabs(value) : (rel < 0 ? fmax(value, 0) : fmax(-value, 0)); }
        """

    static let gtkMain = """

        int main(void) {
            gtk_init();
            GtkWidget *window = gtk_window_new();
            GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
            layout = gtk_constraint_layout_new();
            gtk_widget_set_layout_manager(box, layout);
            gtk_window_set_child(GTK_WINDOW(window), box);
            for (int i = 0; i < NVIEWS; i++) {
                views[i] = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
                gtk_widget_set_parent(views[i], box);
            }
            add_constraints();
            int minimum, natural;
            gtk_widget_measure(box, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
            gtk_widget_measure(box, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, NULL, NULL);
            gtk_widget_size_allocate(box, &(GtkAllocation){0, 0, 0, 0}, -1);
            double x[NVARS + 1];
            for (int v = 0; v < NVARS; v++) {
                graphene_rect_t b;
                if (!gtk_widget_compute_bounds(views[v / 4], box, &b)) graphene_rect_init(&b, 0, 0, 0, 0);
                double values[4] = {b.origin.x, b.origin.y, b.size.width - 100000.0, b.size.height - 100000.0};
                x[v] = values[v % 4];
                printf("x%d = %g\\n", v, x[v]);
            }
            int bugs = 0, rows = (int)(sizeof ROWS / sizeof ROWS[0]);
            double objective = 0, slack = BOUND;
            for (int r = 0; r < rows; r++) {
                double value = ROWS[r].constant, rounding = 1e-9;
                for (int t = 0; t < ROWS[r].n; t++) {
                    value += ROWS[r].coef[t] * x[ROWS[r].var[t]];
                    rounding += fabs(ROWS[r].coef[t]);
                }
                int expected_rejected = 0;
                for (int k = 0; EXPECTED_REJECTED[k] >= 0; k++) expected_rejected |= EXPECTED_REJECTED[k] == r;
                if (ROWS[r].priority == 1000) {
                    int dropped = error(value, ROWS[r].rel) > rounding + BOUND;
                    if (dropped && !expected_rejected) { printf("BUG: required row %d violated by %g (it is satisfiable with the rows before it)\\n", r, error(value, ROWS[r].rel)); bugs++; }
                    if (!dropped && expected_rejected) { printf("BUG: required row %d holds, but it conflicts with the rows before it (one of them was dropped instead)\\n", r); bugs++; }
                } else {
                    objective += SCALE * ROWS[r].priority * error(value, ROWS[r].rel);
                    slack += SCALE * ROWS[r].priority * rounding;
                }
            }
            if (!isnan(EXPECTED_OBJECTIVE) && objective > EXPECTED_OBJECTIVE + slack) {
                printf("BUG: weighted objective %.17g is above GTK's own optimum %.17g (allowance for whole pixels %g)\\n", objective, EXPECTED_OBJECTIVE, slack);
                bugs++;
            }
            printf(bugs ? "GTK %u.%u.%u: %d problem(s)\\n" : "GTK %u.%u.%u: OK\\n", gtk_get_major_version(), gtk_get_minor_version(), gtk_get_micro_version(), bugs);
            /* No teardown: with a non-required constraint in the layout, GTK 4.8.3 frees a solver
             * variable twice when the window goes (reproducers/remove-optional-constraint.c) and
             * may abort, hiding this program's verdict. */
            fflush(stdout);
            _exit(bugs ? 1 : 0);
        }
        """
}

/// How the gtk adapter (scripts/solvers/gtk/gtk_adapter.c) turns a lowered row into one
/// `GtkConstraint`: terms grouped by view and axis, each group one GTK attribute. Declared in
/// the hello as `"row_form": "gtk-attributes"`, so that a system with a row GTK cannot hold is
/// declined before it is sent (``OutsideSolverBackend/supports(_:)``), not counted as a crash.
enum GtkRowMapping {
    struct Attribute {
        var view: Int
        /// `LEFT`, `WIDTH`, … as in `GTK_CONSTRAINT_ATTRIBUTE_…`.
        var name: String
        var coefficient: Rational
        /// How much of the size the attribute holds (right: 1, center: 1/2).
        var sizePart: Rational
    }

    /// The row's one or two attributes, or nil when it has none (no unknowns: decided by the
    /// adapter) or no GtkConstraint (more than two attributes, or x and width mixed otherwise).
    static func attributes(of row: LinearRow<Rational>) -> [Attribute]? {
        struct Group { var view: Int; var axis: Int; var position = Rational.zero; var size = Rational.zero }
        var groups: [Group] = []
        for term in row.terms {
            let view = term.variable / 4, component = term.variable % 4, axis = component % 2
            let k = groups.firstIndex { $0.view == view && $0.axis == axis } ?? { groups.append(Group(view: view, axis: axis)); return groups.count - 1 }()
            if component < 2 { groups[k].position += term.coefficient } else { groups[k].size += term.coefficient }
        }
        guard (1...2).contains(groups.count) else { return nil }
        var attributes: [Attribute] = []
        for g in groups {
            let names = g.axis == 0 ? ["LEFT", "WIDTH", "RIGHT", "CENTER_X"] : ["TOP", "HEIGHT", "BOTTOM", "CENTER_Y"]
            if g.size.isZero { attributes.append(Attribute(view: g.view, name: names[0], coefficient: g.position, sizePart: .zero)) }
            else if g.position.isZero { attributes.append(Attribute(view: g.view, name: names[1], coefficient: g.size, sizePart: Rational(1))) }
            else if g.size == g.position { attributes.append(Attribute(view: g.view, name: names[2], coefficient: g.position, sizePart: Rational(1))) }
            else if g.size * Rational(2) == g.position {
                attributes.append(Attribute(view: g.view, name: names[3], coefficient: g.position, sizePart: Rational(numerator: 1, denominator: 2)))
            } else { return nil }
        }
        return attributes
    }

    /// The largest magnitude GTK 4 holds to the pixel: 2²⁴. A child's position lives in a
    /// `graphene` (float32) transform and `gtk_widget_compute_bounds` answers in floats, so
    /// beyond 2²⁴ px whole pixels are lost (measured, GTK 4.8.3: `x == 1.6e7` comes back
    /// exact, `x == 1.7e7` with its 3 px wide view 4 px wide; at 1e8 a 10 px view is 16 px;
    /// past 2³¹ the `int` of `GtkAllocation` overflows and GTK logs a WARNING).
    static let pixelRange = Rational(1 << 24)
    /// GTK's widths and heights are the format's shifted by this much (the adapter's
    /// `size_offset`, docs/outside-solvers.md "Intrinsic sizes").
    static let sizeOffset = Rational(100_000)

    /// Why the adapter would answer `unsupported`, or nil when it takes the system.
    ///
    /// Besides the rows GTK cannot express and priorities with no whole strength, a system
    /// whose constants could place a value beyond ``pixelRange`` is declined: the sum of its
    /// constants' and its root frame's magnitudes (what a chain of views can add up to) plus
    /// two size offsets (a right edge is x + w + offset) must stay within 2²⁴. The
    /// extreme-constants family (1e9) is the case in point: GTK cannot answer it in pixels.
    static func unsupported(_ system: ConstraintSystem, strengthScale: Rational) -> String? {
        let lowered = system.lowered(as: Rational.self)
        var reach = sizeOffset * Rational(2)
        for row in lowered.rows { reach += row.constant.magnitude }
        for value in system.root.frame ?? [] { reach += Rational(literal: value).magnitude }
        for row in lowered.rows {
            if !row.terms.isEmpty && attributes(of: row) == nil {
                return "\(system.constraintName(row.constraintIndex)) has no GtkConstraint (more than two attributes, or position and size mixed)"
            }
            if row.level > 0 {
                let priority = lowered.levels[row.level - 1]
                if !(Rational(literal: priority.value) * strengthScale).isInteger {
                    return "priority \(priority.value) has no whole GTK strength"
                }
                // GTK weighs the error of `A REL m·B + c`, i.e. the row divided by A's coefficient
                // a: with |a| ≠ 1 its weight would be strength / |a|, not the declared mapping's.
                if let a = attributes(of: row)?.first?.coefficient, a.magnitude != .one {
                    return "optional \(system.constraintName(row.constraintIndex)) is a GtkConstraint whose error GTK weighs divided by \(a.magnitude.doubleValue), not at its priority's strength"
                }
            }
        }
        if reach > pixelRange {
            return "constants (with the root frame) add up to \(reach.doubleValue) px, beyond the 2^24 px GTK holds to the pixel (float32 geometry)"
        }
        return nil
    }
}
