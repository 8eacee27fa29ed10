/* GTK 4 (seen with 4.8.3): two required constraints whose combination has a coefficient
 * within 0.001 of zero lose one of them, silently.
 *   b.width == a.width + 1          (required)
 *   a.width == 0.9995 * b.width     (required)
 * has the one solution a = 1999, b = 2000 (a = 0.9995·a + 0.9995, so 0.0005·a = 0.9995).
 * Substituting the first into the second leaves a with coefficient 1 − 0.9995 = 0.0005, which
 * GTK's solver takes for zero: it keeps b = a + 1, drops the second constraint without a
 * message, and lets its own pull towards the natural width (0) decide: a = 0, b = 1. With
 * 0.9985 (coefficient 0.0015) GTK answers 667/667 as it should (666.67 ceiled); the edge is
 * at 0.001. Found by LayoutBench's gtk adapter (fuzz --backend exact,gtk, families
 * decimal-equalities: `b.width == 1.01 * a.width + 10.1`, `a.width == 0.99 * b.width + 1.3`).
 *
 * Build and run:
 *   cc $(pkg-config --cflags gtk4) -o /tmp/repro near-zero-coefficient.c $(pkg-config --libs gtk4)
 *   xvfb-run -a /tmp/repro
 * Prints BUG and exits 1 while a is not 1999 (GTK ceils sizes: 1999 or 2000 pass); OK and 0 once it is. */
#include <gtk/gtk.h>

int main(void) {
    gtk_init();
    GtkWidget *window = gtk_window_new();
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    GtkLayoutManager *layout = gtk_constraint_layout_new();
    gtk_widget_set_layout_manager(box, layout);
    gtk_window_set_child(GTK_WINDOW(window), box);
    GtkWidget *a = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0), *b = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_set_parent(a, box);
    gtk_widget_set_parent(b, box);
    GtkConstraintLayout *l = GTK_CONSTRAINT_LAYOUT(layout);
    gtk_constraint_layout_add_constraint(l, gtk_constraint_new(GTK_CONSTRAINT_TARGET(b), GTK_CONSTRAINT_ATTRIBUTE_WIDTH,
        GTK_CONSTRAINT_RELATION_EQ, GTK_CONSTRAINT_TARGET(a), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, 1.0, 1.0,
        GTK_CONSTRAINT_STRENGTH_REQUIRED));
    gtk_constraint_layout_add_constraint(l, gtk_constraint_new(GTK_CONSTRAINT_TARGET(a), GTK_CONSTRAINT_ATTRIBUTE_WIDTH,
        GTK_CONSTRAINT_RELATION_EQ, GTK_CONSTRAINT_TARGET(b), GTK_CONSTRAINT_ATTRIBUTE_WIDTH, 0.9995, 0.0,
        GTK_CONSTRAINT_STRENGTH_REQUIRED));
    int minimum, natural;
    gtk_widget_measure(box, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
    gtk_widget_measure(box, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, NULL, NULL);
    gtk_widget_size_allocate(box, &(GtkAllocation){0, 0, 4000, 300}, -1);
    int wa = gtk_widget_get_width(a), wb = gtk_widget_get_width(b);
    printf("a.width %d, b.width %d; the one solution is 1999, 2000\n", wa, wb);
    if (wa < 1999 || wa > 2000 || wb < 2000 || wb > 2001) {
        printf("BUG: GTK %u.%u.%u drops a required constraint: a coefficient of 0.0005 is taken for zero\n",
               gtk_get_major_version(), gtk_get_minor_version(), gtk_get_micro_version());
        return 1;
    }
    printf("OK\n");
    return 0;
}
