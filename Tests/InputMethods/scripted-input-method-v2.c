/*
 * A scripted input method for input-method-unstable-v2 (sway, wlroots), for Damask's tests.
 *
 * It takes the seat's input method and plays, on command, exactly the requests a test asks
 * for, valid or not; it reports every event the compositor sends it. No keyboard grab, no
 * composition of its own: the test decides every preedit, commit and delete.
 *
 * Commands, one per line on stdin (TEXT is the rest of the line; \n, \\ and \xNN escapes
 * give any byte, so invalid UTF-8 too):
 *   preedit BEGIN END TEXT   set_preedit_string(TEXT, BEGIN, END)
 *   commit TEXT              commit_string(TEXT)
 *   delete BEFORE AFTER      delete_surrounding_text(BEFORE, AFTER)
 *   done [SERIAL]            commit(SERIAL); by default the number of done events so far,
 *                            as the protocol asks
 *   sync                     a round trip; then prints "synced"
 * End of file on stdin ends the program (exit 0).
 *
 * With DAMASK_IME_COMMANDS=FIFO it also reads a live demo's `ime` lines from that FIFO, in
 * the syntax of the v1 input method's script (InputMethodCommandChannel writes them):
 *   preedit "TEXT" cursor N  set_preedit_string(TEXT, N, N) (N negative: -1, -1), commit
 *   commit "TEXT"            commit_string(TEXT), commit
 *   delete INDEX LENGTH      delete_surrounding_text(-INDEX, INDEX + LENGTH), sent with the
 *                            commit of the line after it (as v1 applies a deletion)
 *   language "TAG", direction auto|ltr|rtl
 *                            ignored (reported as "ignored: …"): input-method-v2 has no
 *                            language or direction requests
 * (strings take \" \\ and \xNN escapes). They are read only while the input method is active
 * (the compositor ignores an inactive one's requests): a line written before a text field
 * is focused waits for it. Each is reported as "command N: LINE" when read, and a line it
 * cannot play as "error …" (then exit 1).
 *
 * Reports, one per line on stdout:
 *   ready                    the input method exists (after a round trip)
 *   activate | deactivate | unavailable
 *   surrounding_text CURSOR ANCHOR TEXT   (TEXT escaped as above)
 *   text_change_cause CAUSE
 *   content_type HINT PURPOSE
 *   done SERIAL              SERIAL: how many done events so far, this one included
 *   committed SERIAL         a `done` command was sent with SERIAL
 *   error MESSAGE            then exit 1 (also for a protocol error the compositor raised)
 *
 * Built by the tests with gcc (Tests/DamaskWaylandTests/InputMethodPrograms.swift), against the
 * client glue wayland-scanner makes from protocols/input-method-unstable-v2.xml.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "input-method-unstable-v2-client-protocol.h"
#include "script-string.h"

/* Everything the program holds; one instance, owned by main for the program's lifetime. */
struct state {
    struct wl_display *display;
    struct wl_seat *seat;
    struct zwp_input_method_manager_v2 *manager;
    struct zwp_input_method_v2 *input_method;
    uint32_t done_count;
    /* Whether the input method is active (as of the last done), and as the events since
     * then say it will be at the next one. */
    int active, pending_active;
    /* The FIFO of live commands (DAMASK_IME_COMMANDS), opened read-write so that it never
     * reports end of file; owned here, -1 when there is none. */
    int command_fd;
    char command_buffer[65536];
    size_t command_length;
    int command_lines;
};

static void fail(const char *message) {
    printf("error %s\n", message);
    fflush(stdout);
    exit(1);
}

/* Prints `text` with newlines, backslashes and control bytes escaped (\n, \\, \xNN). */
static void print_escaped(const char *text) {
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '\n') {
            fputs("\\n", stdout);
        } else if (*p == '\\') {
            fputs("\\\\", stdout);
        } else if (*p < 0x20 || *p == 0x7f) {
            printf("\\x%02x", *p);
        } else {
            putchar(*p);
        }
    }
}

/* Decodes the escapes of a command's TEXT in place; returns `text`. */
static char *unescape(char *text) {
    char *out = text;
    for (char *in = text; *in; in++) {
        if (*in != '\\' || in[1] == '\0') {
            *out++ = *in;
            continue;
        }
        in++;
        if (*in == 'n') {
            *out++ = '\n';
        } else if (*in == 'x' && in[1] && in[2]) {
            char hex[3] = {in[1], in[2], 0};
            *out++ = (char)strtol(hex, NULL, 16);
            in += 2;
        } else {
            *out++ = *in;
        }
    }
    *out = '\0';
    return text;
}

static void handle_activate(void *data, struct zwp_input_method_v2 *im) {
    struct state *state = data;
    (void)im;
    state->pending_active = 1;
    puts("activate");
}

static void handle_deactivate(void *data, struct zwp_input_method_v2 *im) {
    struct state *state = data;
    (void)im;
    state->pending_active = 0;
    puts("deactivate");
}

static void handle_surrounding_text(
    void *data, struct zwp_input_method_v2 *im, const char *text, uint32_t cursor, uint32_t anchor) {
    (void)data, (void)im;
    printf("surrounding_text %u %u ", cursor, anchor);
    print_escaped(text);
    putchar('\n');
}

static void handle_text_change_cause(void *data, struct zwp_input_method_v2 *im, uint32_t cause) {
    (void)data, (void)im;
    printf("text_change_cause %u\n", cause);
}

static void handle_content_type(void *data, struct zwp_input_method_v2 *im, uint32_t hint, uint32_t purpose) {
    (void)data, (void)im;
    printf("content_type %u %u\n", hint, purpose);
}

static void handle_done(void *data, struct zwp_input_method_v2 *im) {
    struct state *state = data;
    (void)im;
    state->done_count++;
    state->active = state->pending_active;
    printf("done %u\n", state->done_count);
    fflush(stdout);
}

static void handle_unavailable(void *data, struct zwp_input_method_v2 *im) {
    (void)data, (void)im;
    puts("unavailable");
    fflush(stdout);
}

static const struct zwp_input_method_v2_listener input_method_listener = {
    .activate = handle_activate,
    .deactivate = handle_deactivate,
    .surrounding_text = handle_surrounding_text,
    .text_change_cause = handle_text_change_cause,
    .content_type = handle_content_type,
    .done = handle_done,
    .unavailable = handle_unavailable,
};

static void handle_global(
    void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    struct state *state = data;
    (void)version;
    if (strcmp(interface, wl_seat_interface.name) == 0 && !state->seat) {
        state->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    } else if (strcmp(interface, zwp_input_method_manager_v2_interface.name) == 0) {
        state->manager = wl_registry_bind(registry, name, &zwp_input_method_manager_v2_interface, 1);
    }
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {
    .global = handle_global,
    .global_remove = handle_global_remove,
};

/* Plays one live command (see the top of the file); a line it cannot play is an error. */
static void run_live_command(struct state *state, char *line) {
    char text[sizeof state->command_buffer];
    char *p = line;
    char *end;
    if (strncmp(p, "preedit ", 8) == 0) {
        p += 8;
        if (!script_string(&p, text)) fail("live command: preedit needs a quoted string");
        while (*p == ' ') p++;
        long cursor = (long)strlen(text);
        if (strncmp(p, "cursor ", 7) == 0) {
            cursor = strtol(p + 7, &end, 10);
            if (end == p + 7) fail("live command: cursor needs a number");
        }
        int32_t position = cursor < 0 ? -1 : (int32_t)cursor;
        zwp_input_method_v2_set_preedit_string(state->input_method, text, position, position);
    } else if (strncmp(p, "commit ", 7) == 0) {
        p += 7;
        if (!script_string(&p, text)) fail("live command: commit needs a quoted string");
        zwp_input_method_v2_commit_string(state->input_method, text);
    } else if (strncmp(p, "delete ", 7) == 0) {
        long index = strtol(p + 7, &end, 10);
        long length = strtol(end, &end, 10);
        if (index > 0 || length < -index) fail("live command: delete INDEX LENGTH must reach the caret");
        zwp_input_method_v2_delete_surrounding_text(state->input_method, (uint32_t)-index, (uint32_t)(index + length));
        return; /* applied with the next line's commit */
    } else if (strncmp(p, "language ", 9) == 0 || strncmp(p, "direction ", 10) == 0) {
        /* input-method-v2 has no such request (text-input-v3 no such event): nothing to send. */
        puts("ignored: input-method-v2 cannot say it");
        return;
    } else {
        fail("live command: unknown (preedit, commit, delete, language, direction)");
    }
    zwp_input_method_v2_commit(state->input_method, state->done_count);
    printf("committed %u\n", state->done_count);
}

/* Reads what the FIFO holds and plays every complete line. */
static void read_live_commands(struct state *state) {
    for (;;) {
        size_t room = sizeof state->command_buffer - 1 - state->command_length;
        if (room == 0) fail("live command line too long");
        ssize_t count = read(state->command_fd, state->command_buffer + state->command_length, room);
        if (count <= 0) break;
        state->command_length += (size_t)count;
    }
    state->command_buffer[state->command_length] = '\0';
    char *start = state->command_buffer, *newline;
    while ((newline = strchr(start, '\n'))) {
        *newline = '\0';
        state->command_lines++;
        printf("command %d: ", state->command_lines);
        print_escaped(start);
        putchar('\n');
        if (*start) run_live_command(state, start);
        start = newline + 1;
    }
    state->command_length = strlen(start);
    memmove(state->command_buffer, start, state->command_length + 1);
    fflush(stdout);
}

/* Runs one command line; unknown commands are an error (exit 1). */
static void run_command(struct state *state, char *line) {
    char *rest = strchr(line, ' ');
    if (rest) *rest++ = '\0';
    if (strcmp(line, "preedit") == 0 && rest) {
        char *end_field = NULL;
        long begin = strtol(rest, &end_field, 10);
        long end = strtol(end_field, &end_field, 10);
        const char *text = *end_field == ' ' ? unescape(end_field + 1) : "";
        zwp_input_method_v2_set_preedit_string(state->input_method, text, (int32_t)begin, (int32_t)end);
    } else if (strcmp(line, "commit") == 0) {
        zwp_input_method_v2_commit_string(state->input_method, rest ? unescape(rest) : "");
    } else if (strcmp(line, "delete") == 0 && rest) {
        char *end_field = NULL;
        unsigned long before = strtoul(rest, &end_field, 10);
        unsigned long after = strtoul(end_field, NULL, 10);
        zwp_input_method_v2_delete_surrounding_text(state->input_method, (uint32_t)before, (uint32_t)after);
    } else if (strcmp(line, "done") == 0) {
        uint32_t serial = rest ? (uint32_t)strtoul(rest, NULL, 10) : state->done_count;
        zwp_input_method_v2_commit(state->input_method, serial);
        printf("committed %u\n", serial);
    } else if (strcmp(line, "sync") == 0) {
        if (wl_display_roundtrip(state->display) < 0) fail("the connection broke");
        puts("synced");
    } else {
        fail("unknown command (preedit, commit, delete, done, sync)");
    }
    fflush(stdout);
}

int main(void) {
    static struct state state = {.command_fd = -1};
    state.display = wl_display_connect(NULL);
    if (!state.display) fail("cannot connect to $WAYLAND_DISPLAY");
    struct wl_registry *registry = wl_display_get_registry(state.display);
    wl_registry_add_listener(registry, &registry_listener, &state);
    wl_display_roundtrip(state.display);
    if (!state.seat) fail("the compositor has no wl_seat");
    if (!state.manager) fail("the compositor has no zwp_input_method_manager_v2");
    state.input_method = zwp_input_method_manager_v2_get_input_method(state.manager, state.seat);
    zwp_input_method_v2_add_listener(state.input_method, &input_method_listener, &state);
    if (wl_display_roundtrip(state.display) < 0) fail("the connection broke");
    const char *command_path = getenv("DAMASK_IME_COMMANDS");
    if (command_path && *command_path) {
        state.command_fd = open(command_path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
        if (state.command_fd < 0) fail("cannot open $DAMASK_IME_COMMANDS");
    }
    puts("ready");
    fflush(stdout);

    char buffer[65536];
    size_t used = 0;
    struct pollfd fds[3] = {
        {.fd = wl_display_get_fd(state.display), .events = POLLIN},
        {.fd = STDIN_FILENO, .events = POLLIN},
        {.fd = state.command_fd, .events = POLLIN},
    };
    for (;;) {
        while (wl_display_prepare_read(state.display) != 0) wl_display_dispatch_pending(state.display);
        wl_display_flush(state.display);
        fflush(stdout);
        int live = state.command_fd >= 0 && state.active;
        fds[2].revents = 0;
        if (poll(fds, live ? 3 : 2, -1) < 0 && errno != EINTR) fail("poll failed");
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (wl_display_read_events(state.display) < 0) fail("the connection broke");
        } else {
            wl_display_cancel_read(state.display);
        }
        if (wl_display_dispatch_pending(state.display) < 0) {
            printf("error protocol error %d\n", wl_display_get_error(state.display));
            fflush(stdout);
            return 1;
        }
        if (live && state.active && (fds[2].revents & POLLIN)) read_live_commands(&state);
        if (fds[1].revents & (POLLIN | POLLHUP)) {
            ssize_t count = read(STDIN_FILENO, buffer + used, sizeof buffer - 1 - used);
            if (count <= 0) break;
            used += (size_t)count;
            buffer[used] = '\0';
            char *start = buffer, *newline;
            while ((newline = strchr(start, '\n'))) {
                *newline = '\0';
                if (*start) run_command(&state, start);
                start = newline + 1;
            }
            used -= (size_t)(start - buffer);
            memmove(buffer, start, used);
            if (used == sizeof buffer - 1) fail("command line too long");
        }
        if (wl_display_flush(state.display) < 0 && errno != EAGAIN) fail("the connection broke");
    }
    wl_display_roundtrip(state.display);
    if (state.command_fd >= 0) close(state.command_fd);
    zwp_input_method_v2_destroy(state.input_method);
    wl_display_disconnect(state.display);
    return 0;
}
