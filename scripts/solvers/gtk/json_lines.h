/* The JSON-lines side of the GTK programs (gtk_adapter.c, gtk_vfl.c): replies go one a
 * line to protocol_out, a duplicate of the original standard output (fd 1 itself is pointed
 * at standard error, so that nothing GTK prints can corrupt the protocol). */
#ifndef LAYOUTBENCH_GTK_JSON_LINES_H
#define LAYOUTBENCH_GTK_JSON_LINES_H

#include <json-glib/json-glib.h>
#include <stdio.h>

static FILE *protocol_out;

static void send(JsonNode *node) {
    char *text = json_to_string(node, FALSE);
    fputs(text, protocol_out);
    fputc('\n', protocol_out);
    fflush(protocol_out);
    g_free(text);
}

/* {"type": TYPE, KEY: TEXT}: an error or unsupported reply. */
static JsonNode *message_reply(const char *type, const char *key, const char *text) {
    JsonNode *node = json_node_new(JSON_NODE_OBJECT);
    JsonObject *o = json_object_new();
    json_object_set_string_member(o, "type", type);
    json_object_set_string_member(o, key, text);
    json_node_take_object(node, o);
    return node;
}

#endif
