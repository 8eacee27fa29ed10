/* GTK 4 (seen with 4.8.3): removing a non-required constraint from a GtkConstraintLayout
 * after an allocation releases a solver variable twice. Valgrind: "Invalid read" in
 * g_rc_box_release_full under g_sequence_free, from gtk_constraint_layout_remove_all_constraints;
 * GLib: "g_ref_count_dec: assertion 'rrc < 0' failed"; now and then the heap is corrupt
 * ("malloc_consolidate(): unaligned fastbin chunk detected", abort).
 * Found by LayoutBench's gtk adapter (scripts/solvers/gtk/gtk_adapter.c), reduced by hand to
 * one constraint: child.left >= 61.5 at strength 750000000 (any non-required strength).
 *
 * Build and run:
 *   cc $(pkg-config --cflags gtk4) -o /tmp/repro remove-optional-constraint.c $(pkg-config --libs gtk4)
 *   xvfb-run -a /tmp/repro            (or: xvfb-run -a valgrind /tmp/repro)
 * Prints BUG and exits 1 when GLib logged a critical during the removals; OK and 0 otherwise. */
#include <gtk/gtk.h>
#include <string.h>

static int criticals;

static GLogWriterOutput writer(GLogLevelFlags level, const GLogField *fields, gsize n, gpointer data) {
    if (level & G_LOG_LEVEL_CRITICAL) {
        criticals++;
        for (gsize i = 0; i < n; i++)
            if (strcmp(fields[i].key, "MESSAGE") == 0) fprintf(stderr, "CRITICAL: %s\n", (const char *)fields[i].value);
    }
    return G_LOG_WRITER_HANDLED;
}

int main(void) {
    g_log_set_writer_func(writer, NULL, NULL);
    gtk_init();
    for (int round = 0; round < 20; round++) {
        GtkWidget *window = gtk_window_new();
        GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
        GtkLayoutManager *layout = gtk_constraint_layout_new();
        gtk_widget_set_layout_manager(box, layout);
        gtk_window_set_child(GTK_WINDOW(window), box);
        GtkWidget *child = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
        gtk_widget_set_parent(child, box);
        gtk_constraint_layout_add_constraint(GTK_CONSTRAINT_LAYOUT(layout),
            gtk_constraint_new_constant(GTK_CONSTRAINT_TARGET(child), GTK_CONSTRAINT_ATTRIBUTE_LEFT,
                                        GTK_CONSTRAINT_RELATION_GE, 61.5, 750000000));
        int minimum, natural;
        gtk_widget_measure(box, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
        gtk_widget_measure(box, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, NULL, NULL);
        gtk_widget_size_allocate(box, &(GtkAllocation){0, 0, 0, 0}, -1);
        gtk_constraint_layout_remove_all_constraints(GTK_CONSTRAINT_LAYOUT(layout));
        gtk_window_destroy(GTK_WINDOW(window));
    }
    if (criticals > 0) {
        printf("BUG: GTK %u.%u.%u logged %d critical(s) removing a non-required constraint\n",
               gtk_get_major_version(), gtk_get_minor_version(), gtk_get_micro_version(), criticals);
        return 1;
    }
    printf("OK\n");
    return 0;
}
