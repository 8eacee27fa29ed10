/* GTK 4 (seen with 4.8.3): a small degenerate LP — 9 views, 16 constraints, among them widths
 * tied to negative multiples of others (`w == -0.5 * x1`, `w == -3 * x3`) and rights bounded by
 * the container's left — makes GTK's solver log
 *   Gtk-CRITICAL: INTERNAL: invalid entry variable during pivot
 *   gtk_constraint_expression_change_subject: assertion 'new_subject != NULL' failed
 * and then crash with SIGSEGV while laying out. Found by LayoutBench's 30-minute campaign
 * `fuzz --backend exact,gtk --time 1800 --seed 7` (family degenerate-pivots; 14 occurrences in
 * 269,386 cases), reduced by its reducer from 13 views and 56 constraints; this file is the
 * reproducer the gtk adapter generated for it, kept as written (the system is below, row by row).
 * A GTK that answers prints OK (or BUG with the wrong row) instead of crashing.
 */
/* Reproducer for GTK 4.8.3 (GtkConstraintLayout), written by LayoutBench.
 * Finding: crash: gtk failed: the adapter died: killed by signal 11 (SIGSEGV)
 * Build and run: sh THIS.repro.sh (cc $(pkg-config --cflags gtk4) ... under xvfb-run).
 * Unknown v is view v/4's x, y, width, height (v%4), in the container's coordinates.
 * Sizes are shifted by 100000 px in GTK (width_gtk = width + 100000) so that GTK's own
 * `width >= 0` of a child never binds; strengths are 1000000 x priority.
 * Prints BUG lines and exits 1 while the bug is there; prints OK and exits 0 once fixed. */
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
#define NVIEWS 9
#define NVARS 36
#define SCALE 1000000.0
static const double EXPECTED_OBJECTIVE = 0.0; /* exact optimum of sum(SCALE*priority*error) */
static const int EXPECTED_REJECTED[] = {-1};
static const double BOUND = 2.1800000000000003e-06;
static const Row ROWS[] = {
    {1, {2, 0, 0, 0}, {1.0, 0, 0, 0}, 0.0, 1, 1000},
    {1, {6, 0, 0, 0}, {1.0, 0, 0, 0}, 0.0, 1, 1000},
    {1, {10, 0, 0, 0}, {1.0, 0, 0, 0}, 0.0, 1, 1000},
    {1, {12, 0, 0, 0}, {1.0, 0, 0, 0}, 0.0, 0, 1000},
    {2, {2, 14, 0, 0}, {0.5, 1.0, 0, 0}, 0.0, 0, 1000},
    {3, {12, 14, 16, 0}, {-1.0, -1.0, 1.0, 0}, 0.0, 0, 1000},
    {2, {6, 18, 0, 0}, {-1.0, 1.0, 0, 0}, 0.0, 0, 1000},
    {3, {16, 18, 20, 0}, {-1.0, -1.0, 1.0, 0}, 0.0, 0, 1000},
    {2, {10, 22, 0, 0}, {-2.0, 1.0, 0, 0}, 0.0, 0, 1000},
    {2, {20, 22, 0, 0}, {1.0, 1.0, 0, 0}, 0.0, -1, 1000},
    {1, {24, 0, 0, 0}, {1.0, 0, 0, 0}, 0.0, 0, 1000},
    {2, {2, 26, 0, 0}, {-1.0, 1.0, 0, 0}, 0.0, 0, 1000},
    {3, {24, 26, 28, 0}, {-1.0, -1.0, 1.0, 0}, 0.0, 0, 1000},
    {2, {10, 30, 0, 0}, {3.0, 1.0, 0, 0}, 0.0, 0, 1000},
    {2, {28, 30, 0, 0}, {1.0, 1.0, 0, 0}, 0.0, -1, 1000},
    {2, {2, 34, 0, 0}, {1.0, 1.0, 0, 0}, 0.0, 0, 1000},
};

static void add_constraints(void) {
    /* row 0, c1: lp0_x1.width >= 0 */
    /*   1*x2 >= 0 @1000 */
    add(gtk_constraint_new_constant(VIEW(0), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, GTK_CONSTRAINT_RELATION_GE, 100000.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 1, c2: lp0_x2.width >= 0 */
    /*   1*x6 >= 0 @1000 */
    add(gtk_constraint_new_constant(VIEW(1), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, GTK_CONSTRAINT_RELATION_GE, 100000.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 2, c3: lp0_x3.width >= 0 */
    /*   1*x10 >= 0 @1000 */
    add(gtk_constraint_new_constant(VIEW(2), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, GTK_CONSTRAINT_RELATION_GE, 100000.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 3, c4: lp0_row1_x1.left == superview.left */
    /*   1*x12 == 0 @1000 */
    add(gtk_constraint_new_constant(VIEW(3), GTK_CONSTRAINT_ATTRIBUTE_LEFT, GTK_CONSTRAINT_RELATION_EQ, 0.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 4, c5: lp0_row1_x1.width == -0.5 * lp0_x1.width */
    /*   0.5*x2 + 1*x14 == 0 @1000 */
    add(gtk_constraint_new(VIEW(0), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, GTK_CONSTRAINT_RELATION_EQ, VIEW(3), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, -2.0, 300000.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 5, c6: lp0_row1_x2.left == lp0_row1_x1.right */
    /*   -1*x12 - 1*x14 + 1*x16 == 0 @1000 */
    add(gtk_constraint_new(VIEW(3), GTK_CONSTRAINT_ATTRIBUTE_RIGHT, GTK_CONSTRAINT_RELATION_EQ, VIEW(4), GTK_CONSTRAINT_ATTRIBUTE_LEFT, 1.0, 100000.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 6, c7: lp0_row1_x2.width == lp0_x2.width */
    /*   -1*x6 + 1*x18 == 0 @1000 */
    add(gtk_constraint_new(VIEW(1), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, GTK_CONSTRAINT_RELATION_EQ, VIEW(4), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, 1.0, 0.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 7, c8: lp0_row1_x3.left == lp0_row1_x2.right */
    /*   -1*x16 - 1*x18 + 1*x20 == 0 @1000 */
    add(gtk_constraint_new(VIEW(4), GTK_CONSTRAINT_ATTRIBUTE_RIGHT, GTK_CONSTRAINT_RELATION_EQ, VIEW(5), GTK_CONSTRAINT_ATTRIBUTE_LEFT, 1.0, 100000.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 8, c9: lp0_row1_x3.width == 2 * lp0_x3.width */
    /*   -2*x10 + 1*x22 == 0 @1000 */
    add(gtk_constraint_new(VIEW(2), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, GTK_CONSTRAINT_RELATION_EQ, VIEW(5), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, 0.5, 50000.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 9, c10: lp0_row1_x3.right <= superview.left */
    /*   1*x20 + 1*x22 <= 0 @1000 */
    add(gtk_constraint_new_constant(VIEW(5), GTK_CONSTRAINT_ATTRIBUTE_RIGHT, GTK_CONSTRAINT_RELATION_LE, 100000.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 10, c11: lp0_row2_x1.left == superview.left */
    /*   1*x24 == 0 @1000 */
    add(gtk_constraint_new_constant(VIEW(6), GTK_CONSTRAINT_ATTRIBUTE_LEFT, GTK_CONSTRAINT_RELATION_EQ, 0.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 11, c12: lp0_row2_x1.width == lp0_x1.width */
    /*   -1*x2 + 1*x26 == 0 @1000 */
    add(gtk_constraint_new(VIEW(0), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, GTK_CONSTRAINT_RELATION_EQ, VIEW(6), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, 1.0, 0.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 12, c13: lp0_row2_x3.left == lp0_row2_x1.right */
    /*   -1*x24 - 1*x26 + 1*x28 == 0 @1000 */
    add(gtk_constraint_new(VIEW(6), GTK_CONSTRAINT_ATTRIBUTE_RIGHT, GTK_CONSTRAINT_RELATION_EQ, VIEW(7), GTK_CONSTRAINT_ATTRIBUTE_LEFT, 1.0, 100000.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 13, c14: lp0_row2_x3.width == -3 * lp0_x3.width */
    /*   3*x10 + 1*x30 == 0 @1000 */
    add(gtk_constraint_new(VIEW(2), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, GTK_CONSTRAINT_RELATION_EQ, VIEW(7), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, -0.33333333333333331, 133333.33333333334, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 14, c15: lp0_row2_x3.right <= superview.left */
    /*   1*x28 + 1*x30 <= 0 @1000 */
    add(gtk_constraint_new_constant(VIEW(7), GTK_CONSTRAINT_ATTRIBUTE_RIGHT, GTK_CONSTRAINT_RELATION_LE, 100000.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    /* row 15, c16: lp0_z_x1.width == -1 * lp0_x1.width */
    /*   1*x2 + 1*x34 == 0 @1000 */
    add(gtk_constraint_new(VIEW(0), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, GTK_CONSTRAINT_RELATION_EQ, VIEW(8), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, -1.0, 200000.0, GTK_CONSTRAINT_STRENGTH_REQUIRED));
}

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
        printf("x%d = %g\n", v, x[v]);
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
            if (dropped && !expected_rejected) { printf("BUG: required row %d violated by %g (it is satisfiable with the rows before it)\n", r, error(value, ROWS[r].rel)); bugs++; }
            if (!dropped && expected_rejected) { printf("BUG: required row %d holds, but it conflicts with the rows before it (one of them was dropped instead)\n", r); bugs++; }
        } else {
            objective += SCALE * ROWS[r].priority * error(value, ROWS[r].rel);
            slack += SCALE * ROWS[r].priority * rounding;
        }
    }
    if (!isnan(EXPECTED_OBJECTIVE) && objective > EXPECTED_OBJECTIVE + slack) {
        printf("BUG: weighted objective %.17g is above GTK's own optimum %.17g (allowance for whole pixels %g)\n", objective, EXPECTED_OBJECTIVE, slack);
        bugs++;
    }
    printf(bugs ? "GTK %u.%u.%u: %d problem(s)\n" : "GTK %u.%u.%u: OK\n", gtk_get_major_version(), gtk_get_minor_version(), gtk_get_micro_version(), bugs);
    /* No teardown: with a non-required constraint in the layout, GTK 4.8.3 frees a solver
     * variable twice when the window goes (reproducers/remove-optional-constraint.c) and
     * may abort, hiding this program's verdict. */
    fflush(stdout);
    _exit(bugs ? 1 : 0);
}
