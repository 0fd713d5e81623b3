/*
 * A second text field, as far as Weston 10's text-input-v1 can tell: once a file holds a
 * line starting with a given text, it activates a zwp_text_input_v1 of its own on a
 * surface of its own. Weston then gives the input method to it and sends `leave` to the
 * text input that had it, although that client keeps the keyboard focus: what a field must
 * survive when another client (an on-screen keyboard's entry, a second window) takes the
 * input method.
 *
 *   DAMASK_THIEF_WATCH=FILE DAMASK_THIEF_AFTER=PREFIX text-input-thief-v1
 *
 * It connects to WAYLAND_DISPLAY, prints "ready" once bound, "activated" after its
 * activate request reached the compositor (a roundtrip), then "enter" and "leave" as they
 * come, one a line, flushed; it runs until killed or the connection ends. Exit 2 with a
 * message for a missing variable or global.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "text-input-unstable-v1-client-protocol.h"

static struct wl_compositor *compositor;
static struct wl_seat *seat;
static struct zwp_text_input_manager_v1 *manager;

static void say(const char *line) {
    printf("%s\n", line);
    fflush(stdout);
}

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    (void)version;
    if (strcmp(interface, wl_compositor_interface.name) == 0) {
        compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 1);
    } else if (strcmp(interface, wl_seat_interface.name) == 0 && seat == NULL) {
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    } else if (strcmp(interface, zwp_text_input_manager_v1_interface.name) == 0) {
        manager = wl_registry_bind(registry, name, &zwp_text_input_manager_v1_interface, 1);
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data;
    (void)registry;
    (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

static void enter(void *data, struct zwp_text_input_v1 *input, struct wl_surface *surface) {
    (void)data;
    (void)input;
    (void)surface;
    say("enter");
}

static void leave(void *data, struct zwp_text_input_v1 *input) {
    (void)data;
    (void)input;
    say("leave");
}

static void modifiers_map(void *data, struct zwp_text_input_v1 *input, struct wl_array *map) {
    (void)data; (void)input; (void)map;
}
static void input_panel_state(void *data, struct zwp_text_input_v1 *input, uint32_t state) {
    (void)data; (void)input; (void)state;
}
static void preedit_string(void *data, struct zwp_text_input_v1 *input, uint32_t serial, const char *text, const char *commit) {
    (void)data; (void)input; (void)serial; (void)text; (void)commit;
}
static void preedit_styling(void *data, struct zwp_text_input_v1 *input, uint32_t index, uint32_t length, uint32_t style) {
    (void)data; (void)input; (void)index; (void)length; (void)style;
}
static void preedit_cursor(void *data, struct zwp_text_input_v1 *input, int32_t index) {
    (void)data; (void)input; (void)index;
}
static void commit_string(void *data, struct zwp_text_input_v1 *input, uint32_t serial, const char *text) {
    (void)data; (void)input; (void)serial; (void)text;
}
static void cursor_position(void *data, struct zwp_text_input_v1 *input, int32_t index, int32_t anchor) {
    (void)data; (void)input; (void)index; (void)anchor;
}
static void delete_surrounding_text(void *data, struct zwp_text_input_v1 *input, int32_t index, uint32_t length) {
    (void)data; (void)input; (void)index; (void)length;
}
static void keysym(void *data, struct zwp_text_input_v1 *input, uint32_t serial, uint32_t time, uint32_t sym,
                   uint32_t state, uint32_t modifiers) {
    (void)data; (void)input; (void)serial; (void)time; (void)sym; (void)state; (void)modifiers;
}
static void language(void *data, struct zwp_text_input_v1 *input, uint32_t serial, const char *tag) {
    (void)data; (void)input; (void)serial; (void)tag;
}
static void text_direction(void *data, struct zwp_text_input_v1 *input, uint32_t serial, uint32_t direction) {
    (void)data; (void)input; (void)serial; (void)direction;
}

static const struct zwp_text_input_v1_listener input_listener = {
    enter, leave, modifiers_map, input_panel_state, preedit_string, preedit_styling, preedit_cursor,
    commit_string, cursor_position, delete_surrounding_text, keysym, language, text_direction,
};

/* Whether FILE has a line starting with PREFIX (a missing file has none). */
static int file_has_line(const char *path, const char *prefix) {
    FILE *file = fopen(path, "r");
    if (file == NULL) return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, file) != NULL) found = strncmp(line, prefix, strlen(prefix)) == 0;
    fclose(file);
    return found;
}

int main(void) {
    const char *watch = getenv("DAMASK_THIEF_WATCH"), *after = getenv("DAMASK_THIEF_AFTER");
    if (watch == NULL || after == NULL) {
        fprintf(stderr, "text-input-thief-v1: set DAMASK_THIEF_WATCH and DAMASK_THIEF_AFTER\n");
        return 2;
    }
    struct wl_display *display = wl_display_connect(NULL);
    if (display == NULL) {
        fprintf(stderr, "text-input-thief-v1: cannot connect to the compositor: %s\n", strerror(errno));
        return 2;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (compositor == NULL || seat == NULL || manager == NULL) {
        fprintf(stderr, "text-input-thief-v1: the compositor lacks wl_compositor, wl_seat or zwp_text_input_manager_v1\n");
        return 2;
    }
    struct wl_surface *surface = wl_compositor_create_surface(compositor);
    struct zwp_text_input_v1 *input = zwp_text_input_manager_v1_create_text_input(manager);
    zwp_text_input_v1_add_listener(input, &input_listener, NULL);
    wl_display_roundtrip(display);
    say("ready");
    /* Poll the file every 10 ms (the wait is bounded by the test's own time limit). */
    while (!file_has_line(watch, after)) {
        if (wl_display_dispatch_pending(display) < 0) return 1;
        wl_display_flush(display);
        usleep(10000);
    }
    zwp_text_input_v1_activate(input, seat, surface);
    if (wl_display_roundtrip(display) < 0) return 1;
    say("activated");
    while (wl_display_dispatch(display) >= 0) {
    }
    return 0;
}
