/* GTK 4's own Visual Format Language parser, one line at a time, for LayoutBench's VFL
 * differential (`layoutbench vfl-diff`, docs/outside-solvers.md, section "GTK", "The VFL
 * differential").
 *
 * It speaks JSON lines like the adapters (the same hello and ids, so LayoutBench's adapter
 * session drives it), but answers one request only:
 *
 *   {"id": 1, "type": "vfl", "line": "H:|-[a]-|", "views": ["a", "b"], "hspacing": -1, "vspacing": -1}
 *
 * with the GtkConstraint objects that gtk_constraint_layout_add_constraints_from_descriptionv
 * made, in the order GTK made them:
 *
 *   {"id": 1, "type": "constraints", "constraints": [{"target": "super", "target_attribute": "start",
 *    "relation": "==", "source": "a", "source_attribute": "start", "multiplier": 1, "constant": -8,
 *    "strength": 1001001000}, ...]}
 *
 * or with GTK's GError: {"id": 1, "type": "rejected", "code": 2, "message": "0:2: Unable to find ..."}.
 * The target or source NULL (the layout's own widget, VFL's `|`) is named "super"; a constant
 * constraint has source null and source_attribute "none". Whatever GTK logs (criticals,
 * warnings) during a request comes back in `log`.
 *
 * No display is needed: the views are GtkConstraintGuides (plain GObjects) and the layout is
 * never attached to a widget, so GTK only parses and builds constraints, it never solves.
 */
#define _GNU_SOURCE
#include <gtk/gtk.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "json_lines.h"

static GPtrArray *captured;

static GLogWriterOutput capture_writer(GLogLevelFlags level, const GLogField *fields, gsize n, gpointer data) {
    if (!(level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))) return G_LOG_WRITER_HANDLED;
    const char *message = "";
    for (gsize i = 0; i < n; i++)
        if (strcmp(fields[i].key, "MESSAGE") == 0 && fields[i].value) message = fields[i].value;
    const char *name = (level & G_LOG_LEVEL_ERROR) ? "ERROR" : (level & G_LOG_LEVEL_CRITICAL) ? "CRITICAL" : "WARNING";
    g_ptr_array_add(captured, g_strdup_printf("%s %s", name, message));
    return G_LOG_WRITER_HANDLED;
}

/* GtkConstraintAttribute by the names GTK's VFL uses (and "none"). */
static const char *attribute_name(GtkConstraintAttribute a) {
    switch (a) {
    case GTK_CONSTRAINT_ATTRIBUTE_NONE: return "none";
    case GTK_CONSTRAINT_ATTRIBUTE_LEFT: return "left";
    case GTK_CONSTRAINT_ATTRIBUTE_RIGHT: return "right";
    case GTK_CONSTRAINT_ATTRIBUTE_TOP: return "top";
    case GTK_CONSTRAINT_ATTRIBUTE_BOTTOM: return "bottom";
    case GTK_CONSTRAINT_ATTRIBUTE_START: return "start";
    case GTK_CONSTRAINT_ATTRIBUTE_END: return "end";
    case GTK_CONSTRAINT_ATTRIBUTE_WIDTH: return "width";
    case GTK_CONSTRAINT_ATTRIBUTE_HEIGHT: return "height";
    case GTK_CONSTRAINT_ATTRIBUTE_CENTER_X: return "centerX";
    case GTK_CONSTRAINT_ATTRIBUTE_CENTER_Y: return "centerY";
    case GTK_CONSTRAINT_ATTRIBUTE_BASELINE: return "baseline";
    }
    return "unknown";
}

static const char *target_name(GHashTable *names, gpointer target) {
    if (target == NULL) return "super";
    const char *name = g_hash_table_lookup(names, target);
    return name != NULL ? name : "unknown";
}

static void add_constraint(JsonBuilder *b, GHashTable *names, GtkConstraint *c) {
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "target");
    json_builder_add_string_value(b, target_name(names, gtk_constraint_get_target(c)));
    json_builder_set_member_name(b, "target_attribute");
    json_builder_add_string_value(b, attribute_name(gtk_constraint_get_target_attribute(c)));
    GtkConstraintRelation r = gtk_constraint_get_relation(c);
    json_builder_set_member_name(b, "relation");
    json_builder_add_string_value(b, r == GTK_CONSTRAINT_RELATION_EQ ? "==" : r == GTK_CONSTRAINT_RELATION_LE ? "<=" : ">=");
    json_builder_set_member_name(b, "source");
    if (gtk_constraint_get_source_attribute(c) == GTK_CONSTRAINT_ATTRIBUTE_NONE) json_builder_add_null_value(b);
    else json_builder_add_string_value(b, target_name(names, gtk_constraint_get_source(c)));
    json_builder_set_member_name(b, "source_attribute");
    json_builder_add_string_value(b, attribute_name(gtk_constraint_get_source_attribute(c)));
    json_builder_set_member_name(b, "multiplier");
    json_builder_add_double_value(b, gtk_constraint_get_multiplier(c));
    json_builder_set_member_name(b, "constant");
    json_builder_add_double_value(b, gtk_constraint_get_constant(c));
    json_builder_set_member_name(b, "strength");
    json_builder_add_int_value(b, gtk_constraint_get_strength(c));
    json_builder_end_object(b);
}

static JsonNode *answer(JsonObject *request, char **failure) {
    const char *line = json_object_has_member(request, "line") ? json_object_get_string_member(request, "line") : NULL;
    JsonArray *views = json_object_has_member(request, "views") ? json_object_get_array_member(request, "views") : NULL;
    if (line == NULL || views == NULL) {
        *failure = g_strdup("a vfl request needs line and views");
        return NULL;
    }
    int hspacing = json_object_has_member(request, "hspacing") ? (int)json_object_get_int_member(request, "hspacing") : -1;
    int vspacing = json_object_has_member(request, "vspacing") ? (int)json_object_get_int_member(request, "vspacing") : -1;
    GtkLayoutManager *layout = gtk_constraint_layout_new();
    GHashTable *table = g_hash_table_new(g_str_hash, g_str_equal);  /* name -> guide */
    GHashTable *names = g_hash_table_new(g_direct_hash, g_direct_equal); /* guide -> name */
    GPtrArray *guides = g_ptr_array_new_with_free_func(g_object_unref);
    for (guint i = 0; i < json_array_get_length(views); i++) {
        const char *name = json_array_get_string_element(views, i);
        if (name == NULL) continue;
        GtkConstraintGuide *guide = gtk_constraint_guide_new();
        g_ptr_array_add(guides, guide);
        g_hash_table_insert(table, (gpointer)name, guide);
        g_hash_table_insert(names, guide, (gpointer)name);
    }
    const char *lines[] = {line};
    GError *error = NULL;
    GList *made = gtk_constraint_layout_add_constraints_from_descriptionv(GTK_CONSTRAINT_LAYOUT(layout), lines, 1, hspacing,
                                                                          vspacing, table, &error);
    made = g_list_reverse(made); /* GTK prepends */
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "type");
    if (error != NULL) {
        json_builder_add_string_value(b, "rejected");
        json_builder_set_member_name(b, "code");
        json_builder_add_int_value(b, error->code);
        json_builder_set_member_name(b, "message");
        json_builder_add_string_value(b, error->message);
    } else {
        json_builder_add_string_value(b, "constraints");
    }
    json_builder_set_member_name(b, "constraints");
    json_builder_begin_array(b);
    for (GList *l = made; l != NULL; l = l->next) add_constraint(b, names, l->data);
    json_builder_end_array(b);
    json_builder_end_object(b);
    JsonNode *node = json_builder_get_root(b);
    g_object_unref(b);
    g_clear_error(&error);
    g_list_free(made);
    g_object_unref(layout); /* the layout owns the constraints */
    g_ptr_array_unref(guides);
    g_hash_table_unref(table);
    g_hash_table_unref(names);
    return node;
}

int main(void) {
    /* Dies with LayoutBench, as adapter_protocol.py's die_with_parent does. */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    const char *expected = getenv("LAYOUTBENCH_PARENT_PID");
    if (expected != NULL && (long)getppid() != strtol(expected, NULL, 10)) _exit(0);
    protocol_out = fdopen(dup(1), "w");
    dup2(2, 1); /* anything else written to fd 1 lands on stderr */
    captured = g_ptr_array_new_with_free_func(g_free);
    g_log_set_writer_func(capture_writer, NULL, NULL);

    char *hello = g_strdup_printf(
        "{\"type\":\"hello\",\"protocol\":1,\"name\":\"gtk-vfl\",\"version\":\"%u.%u.%u\",\"capabilities\":{"
        "\"whole\":false,\"input\":[\"vfl\"],\"priorities\":{\"model\":\"weighted\",\"weight\":{\"form\":\"linear\",\"scale\":\"1\"}},"
        "\"reports\":{\"values\":false,\"log\":true}}}\n",
        gtk_get_major_version(), gtk_get_minor_version(), gtk_get_micro_version());
    fputs(hello, protocol_out);
    fflush(protocol_out);
    g_free(hello);

    JsonParser *parser = json_parser_new();
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, stdin)) >= 0) {
        if (length <= 1) continue;
        g_ptr_array_set_size(captured, 0);
        GError *error = NULL;
        JsonNode *reply = NULL;
        char *failure = NULL;
        gint64 id = -1;
        if (!json_parser_load_from_data(parser, line, length, &error) || !JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser))) {
            failure = g_strdup(error != NULL ? error->message : "a request is not a JSON object");
        } else {
            JsonObject *request = json_node_get_object(json_parser_get_root(parser));
            if (json_object_has_member(request, "id")) id = json_object_get_int_member(request, "id");
            const char *type = json_object_has_member(request, "type") ? json_object_get_string_member(request, "type") : "";
            if (type != NULL && strcmp(type, "quit") == 0) break;
            if (type != NULL && strcmp(type, "vfl") == 0) reply = answer(request, &failure);
            else failure = g_strdup_printf("unknown request type '%s'", type ? type : "");
        }
        g_clear_error(&error);
        if (reply == NULL) reply = message_reply("error", "message", failure);
        g_free(failure);
        JsonObject *o = json_node_get_object(reply);
        if (captured->len > 0) {
            JsonArray *log = json_array_new();
            for (guint i = 0; i < captured->len; i++) json_array_add_string_element(log, g_ptr_array_index(captured, i));
            json_object_set_array_member(o, "log", log);
        }
        if (id >= 0) json_object_set_int_member(o, "id", id);
        else json_object_set_null_member(o, "id");
        send(reply);
        json_node_unref(reply);
    }
    free(line);
    g_object_unref(parser);
    return 0;
}
