/* GTK 4 (seen with 4.8.3): after a non-required constraint is removed from a
 * GtkConstraintLayout, a new non-required constraint on the same attribute is not honoured.
 *   child.width <= 300 (required), child.width == 100 (strength 750000000): allocate, width 100;
 *   remove the second, add child.width == 100 (strength 250000000): allocate again.
 * GTK's solver minimises strength x error: nothing opposes width == 100 but GTK's own pull
 * towards the natural width 0 (strength medium, 1000), so the answer is width 100; GTK 4.8.3
 * keeps the width it had after the removal. Found by LayoutBench's gtk adapter (update steps).
 *
 * Build and run:
 *   cc $(pkg-config --cflags gtk4) -o /tmp/repro readd-optional-constraint.c $(pkg-config --libs gtk4)
 *   xvfb-run -a /tmp/repro
 * Prints BUG and exits 1 while the width is not 100; OK and 0 once it is. */
#include <gtk/gtk.h>

static int allocated_width(GtkWidget *box, GtkWidget *child) {
    int minimum, natural;
    gtk_widget_measure(box, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
    gtk_widget_measure(box, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, NULL, NULL);
    gtk_widget_size_allocate(box, &(GtkAllocation){0, 0, 400, 300}, -1);
    return gtk_widget_get_width(child);
}

int main(void) {
    gtk_init();
    GtkWidget *window = gtk_window_new();
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    GtkLayoutManager *layout = gtk_constraint_layout_new();
    gtk_widget_set_layout_manager(box, layout);
    gtk_window_set_child(GTK_WINDOW(window), box);
    GtkWidget *child = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_set_parent(child, box);
    GtkConstraintLayout *l = GTK_CONSTRAINT_LAYOUT(layout);
    GtkConstraintTarget *c = GTK_CONSTRAINT_TARGET(child);
    gtk_constraint_layout_add_constraint(l, gtk_constraint_new_constant(c, GTK_CONSTRAINT_ATTRIBUTE_WIDTH,
        GTK_CONSTRAINT_RELATION_LE, 300, GTK_CONSTRAINT_STRENGTH_REQUIRED));
    GtkConstraint *first = gtk_constraint_new_constant(c, GTK_CONSTRAINT_ATTRIBUTE_WIDTH, GTK_CONSTRAINT_RELATION_EQ, 100, 750000000);
    gtk_constraint_layout_add_constraint(l, g_object_ref(first));
    int before = allocated_width(box, child);
    gtk_constraint_layout_remove_constraint(l, first);
    int removed = allocated_width(box, child);
    gtk_constraint_layout_add_constraint(l, gtk_constraint_new_constant(c, GTK_CONSTRAINT_ATTRIBUTE_WIDTH,
        GTK_CONSTRAINT_RELATION_EQ, 100, 250000000));
    int after = allocated_width(box, child);
    printf("width: %d with the first, %d after removing it, %d after adding the second\n", before, removed, after);
    if (after != 100) {
        printf("BUG: GTK %u.%u.%u gives width %d; its own optimum is 100\n", gtk_get_major_version(),
               gtk_get_minor_version(), gtk_get_micro_version(), after);
        return 1;
    }
    printf("OK\n");
    return 0;
}
