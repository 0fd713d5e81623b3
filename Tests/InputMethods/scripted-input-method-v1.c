/*
 * The tests' own input method for zwp_input_method_v1 (Weston 10's `[input-method] path=`):
 * it plays an exact sequence of preedit, commit, delete and key events from a script, and
 * logs every event the compositor sends it, so that tests can check what a text field told
 * its input method (surrounding text, content type, commit_state serials, resets).
 *
 *   DAMASK_TEST_IM_SCRIPT=FILE DAMASK_TEST_IM_LOG=FILE scripted-input-method-v1
 *
 * Weston launches it with WAYLAND_SOCKET. Script lines (# comments, blank lines ignored):
 *
 *   wait activate               until the next `activate` (a text field was activated)
 *   wait surrounding "TEXT" [cursor N]  until the latest surrounding text is exactly TEXT
 *                               (and its cursor is byte N)
 *   wait deactivate             until the next `deactivate`
 *   preedit "TEXT" [cursor N]   preedit_cursor(N) if given (negative: hidden), then preedit_string
 *   commit "TEXT"               commit_string
 *   delete INDEX LENGTH         delete_surrounding_text (INDEX bytes from the caret)
 *   key KEYSYM                  keysym press and release (decimal or 0x hex)
 *   serial-offset N             later events carry the latest commit_state serial + N
 *   style INDEX LENGTH STYLE    preedit_styling (for the next preedit): STYLE is default,
 *                               none, active, inactive, highlight, underline, selection,
 *                               incorrect, or a number
 *   cursor-position INDEX ANCHOR  cursor_position (for the next commit)
 *   language "TAG"              language (RFC 3066 tag)
 *   direction auto|ltr|rtl      text_direction
 *
 * With DAMASK_IME_COMMANDS=FIFO it also reads script lines from that FIFO (a live demo's
 * `ime` commands, see InputMethodCommandChannel) and plays them after the script's steps;
 * each is logged as "command N: LINE" when read and "step N: LINE" when played.
 *
 * Strings take \" \\ and \xNN escapes (\xNN writes that byte: invalid UTF-8 on purpose).
 * Log lines: "activate", "deactivate", "surrounding \"TEXT\" CURSOR ANCHOR",
 * "content_type HINT PURPOSE", "commit_state SERIAL", "reset", "step N: LINE", "script done",
 * and "error: …" (then exit 1) for a bad script, naming FILE:LINE.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "input-method-unstable-v1-client-protocol.h"
#include "script-string.h"

enum kind {
    WAIT_ACTIVATE, WAIT_SURROUNDING, WAIT_DEACTIVATE, PREEDIT, COMMIT, DELETE, KEY, SERIAL_OFFSET, STYLE, CURSOR_POSITION,
    LANGUAGE, DIRECTION
};

static const char *const style_names[] = {"default", "none", "active", "inactive", "highlight", "underline", "selection",
                                          "incorrect"};

struct step {
    enum kind kind;
    char *text;      /* owned; WAIT_SURROUNDING, PREEDIT, COMMIT */
    long a, b, c;    /* cursor (or -1) / index, length[, style] / keysym / offset / direction */
    int line;
    char *source;    /* owned: the line as written, for the log */
};

static struct step *steps;
static int step_count, next_step;
static FILE *log_file;
static struct zwp_input_method_v1 *input_method;
static struct zwp_input_method_context_v1 *context; /* the active context, owned here */
static uint32_t serial;
static long serial_offset;
static char *surrounding; /* owned */
static long surrounding_cursor = -1;
static int activations, deactivations, activations_waited, deactivations_waited;

static void say(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vfprintf(log_file, format, args);
    va_end(args);
    fputc('\n', log_file);
    fflush(log_file);
}

static void fail(const char *path, int line, const char *what) {
    say("error: %s:%d: %s", path, line, what);
    fprintf(stderr, "scripted-input-method-v1: %s:%d: %s\n", path, line, what);
    exit(1);
}

/* Reads a quoted string at *cursor into a new buffer (see script-string.h); NULL if malformed. */
static char *quoted(char **cursor) {
    char *out = malloc(strlen(*cursor) + 1);
    if (out && script_string(cursor, out)) return out;
    free(out);
    return NULL;
}

static int word(char **cursor, const char *expected) {
    char *p = *cursor;
    while (*p == ' ' || *p == '\t') p++;
    size_t n = strlen(expected);
    if (strncmp(p, expected, n) != 0 || (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != '\n')) return 0;
    *cursor = p + n;
    return 1;
}

static int number(char **cursor, long *value) {
    char *end;
    errno = 0;
    *value = strtol(*cursor, &end, 0);
    if (end == *cursor || errno) return 0;
    *cursor = end;
    return 1;
}

static int at_end(char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return *p == 0;
}

/* Parses one script line (already known not blank or a comment) into a new step. */
static void parse_line(const char *path, int line, char *p) {
    struct step step = {.a = -1, .line = line};
    step.source = strdup(p);
    step.source[strcspn(step.source, "\r\n")] = 0;
    if (word(&p, "wait")) {
        if (word(&p, "activate")) step.kind = WAIT_ACTIVATE;
        else if (word(&p, "deactivate")) step.kind = WAIT_DEACTIVATE;
        else if (word(&p, "surrounding")) {
            step.kind = WAIT_SURROUNDING;
            if (!(step.text = quoted(&p))) fail(path, line, "wait surrounding needs a quoted string");
            if (word(&p, "cursor") && (!number(&p, &step.a) || step.a < 0)) fail(path, line, "cursor needs a number");
        } else fail(path, line, "wait takes activate, deactivate or surrounding \"TEXT\"");
    } else if (word(&p, "preedit")) {
        step.kind = PREEDIT;
        step.a = LONG_MIN; /* no cursor given */
        if (!(step.text = quoted(&p))) fail(path, line, "preedit needs a quoted string");
        if (word(&p, "cursor") && !number(&p, &step.a)) fail(path, line, "cursor needs a number");
    } else if (word(&p, "commit")) {
        step.kind = COMMIT;
        if (!(step.text = quoted(&p))) fail(path, line, "commit needs a quoted string");
    } else if (word(&p, "delete")) {
        step.kind = DELETE;
        if (!number(&p, &step.a) || !number(&p, &step.b) || step.b < 0) fail(path, line, "delete needs INDEX LENGTH");
    } else if (word(&p, "key")) {
        step.kind = KEY;
        if (!number(&p, &step.a) || step.a < 0) fail(path, line, "key needs a keysym");
    } else if (word(&p, "style")) {
        step.kind = STYLE;
        if (!number(&p, &step.a) || !number(&p, &step.b) || step.a < 0 || step.b < 0)
            fail(path, line, "style needs INDEX LENGTH STYLE");
        step.c = -1;
        for (long i = 0; i < (long)(sizeof style_names / sizeof *style_names); i++)
            if (word(&p, style_names[i])) step.c = i;
        if (step.c < 0 && (!number(&p, &step.c) || step.c < 0)) fail(path, line, "style needs a style name or number");
    } else if (word(&p, "cursor-position")) {
        step.kind = CURSOR_POSITION;
        if (!number(&p, &step.a) || !number(&p, &step.b)) fail(path, line, "cursor-position needs INDEX ANCHOR");
    } else if (word(&p, "language")) {
        step.kind = LANGUAGE;
        if (!(step.text = quoted(&p))) fail(path, line, "language needs a quoted string");
    } else if (word(&p, "direction")) {
        step.kind = DIRECTION;
        if (word(&p, "auto")) step.a = 0;
        else if (word(&p, "ltr")) step.a = 1;
        else if (word(&p, "rtl")) step.a = 2;
        else fail(path, line, "direction takes auto, ltr or rtl");
    } else if (word(&p, "serial-offset")) {
        step.kind = SERIAL_OFFSET;
        if (!number(&p, &step.a)) fail(path, line, "serial-offset needs a number");
    } else {
        fail(path, line, "unknown command");
    }
    if (!at_end(p)) fail(path, line, "unexpected text at the end of the line");
    steps = realloc(steps, sizeof *steps * (size_t)(step_count + 1));
    steps[step_count++] = step;
}

static int is_blank_or_comment(char *p) {
    while (*p == ' ' || *p == '\t') p++;
    return *p == '#' || at_end(p);
}

static void load(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) fail(path, 0, strerror(errno));
    char buffer[8192];
    int line = 0;
    while (fgets(buffer, sizeof buffer, file)) {
        line++;
        char *p = buffer;
        while (*p == ' ' || *p == '\t') p++;
        if (is_blank_or_comment(p)) continue;
        parse_line(path, line, p);
    }
    fclose(file);
}

/* Commands from the FIFO named by DAMASK_IME_COMMANDS (a live script's `ime` lines): each
 * complete line is parsed as a script line and appended to the steps. */
static int command_fd = -1;
static const char *command_path;
static char command_buffer[65536];
static size_t command_length;
static int command_lines;

static void read_commands(void) {
    for (;;) {
        if (command_length == sizeof command_buffer - 1) fail(command_path, command_lines + 1, "command line too long");
        ssize_t n = read(command_fd, command_buffer + command_length, sizeof command_buffer - 1 - command_length);
        if (n <= 0) break;
        command_length += (size_t)n;
    }
    command_buffer[command_length] = 0;
    char *start = command_buffer, *newline;
    while ((newline = strchr(start, '\n'))) {
        *newline = 0;
        command_lines++;
        say("command %d: %s", command_lines, start);
        if (!is_blank_or_comment(start)) parse_line(command_path, command_lines, start);
        start = newline + 1;
    }
    command_length = strlen(start);
    memmove(command_buffer, start, command_length + 1);
}

static uint32_t event_serial(void) { return serial + (uint32_t)serial_offset; }

/* Runs steps until one waits for something that has not happened yet. */
static void run(struct wl_display *display) {
    while (next_step < step_count) {
        struct step *step = &steps[next_step];
        switch (step->kind) {
        case WAIT_ACTIVATE:
            if (activations <= activations_waited) return;
            activations_waited++;
            break;
        case WAIT_DEACTIVATE:
            if (deactivations <= deactivations_waited) return;
            deactivations_waited++;
            break;
        case WAIT_SURROUNDING:
            if (!surrounding || strcmp(surrounding, step->text) != 0) return;
            if (step->a >= 0 && surrounding_cursor != step->a) return;
            break;
        case PREEDIT:
            if (!context) return;
            if (step->a != LONG_MIN) zwp_input_method_context_v1_preedit_cursor(context, (int32_t)step->a);
            zwp_input_method_context_v1_preedit_string(context, event_serial(), step->text, "");
            break;
        case COMMIT:
            if (!context) return;
            zwp_input_method_context_v1_commit_string(context, event_serial(), step->text);
            break;
        case DELETE:
            if (!context) return;
            zwp_input_method_context_v1_delete_surrounding_text(context, (int32_t)step->a, (uint32_t)step->b);
            break;
        case KEY:
            if (!context) return;
            zwp_input_method_context_v1_keysym(context, event_serial(), 0, (uint32_t)step->a, WL_KEYBOARD_KEY_STATE_PRESSED, 0);
            zwp_input_method_context_v1_keysym(context, event_serial(), 0, (uint32_t)step->a, WL_KEYBOARD_KEY_STATE_RELEASED, 0);
            break;
        case SERIAL_OFFSET:
            serial_offset = step->a;
            break;
        case STYLE:
            if (!context) return;
            zwp_input_method_context_v1_preedit_styling(context, (uint32_t)step->a, (uint32_t)step->b, (uint32_t)step->c);
            break;
        case CURSOR_POSITION:
            if (!context) return;
            zwp_input_method_context_v1_cursor_position(context, (int32_t)step->a, (int32_t)step->b);
            break;
        case LANGUAGE:
            if (!context) return;
            zwp_input_method_context_v1_language(context, event_serial(), step->text);
            break;
        case DIRECTION:
            if (!context) return;
            zwp_input_method_context_v1_text_direction(context, event_serial(), (uint32_t)step->a);
            break;
        }
        say("step %d: %s", step->line, step->source);
        next_step++;
        if (next_step == step_count) say("script done");
    }
    wl_display_flush(display);
}

static void handle_surrounding(void *data, struct zwp_input_method_context_v1 *c, const char *text, uint32_t cursor,
                               uint32_t anchor) {
    (void)data; (void)c;
    free(surrounding);
    surrounding = strdup(text ? text : "");
    surrounding_cursor = cursor;
    say("surrounding \"%s\" %u %u", surrounding, cursor, anchor);
}

static void handle_reset(void *data, struct zwp_input_method_context_v1 *c) {
    (void)data; (void)c;
    say("reset");
}

static void handle_content_type(void *data, struct zwp_input_method_context_v1 *c, uint32_t hint, uint32_t purpose) {
    (void)data; (void)c;
    say("content_type %u %u", hint, purpose);
}

static void handle_invoke_action(void *data, struct zwp_input_method_context_v1 *c, uint32_t button, uint32_t index) {
    (void)data; (void)c; (void)button; (void)index;
}

static void handle_commit_state(void *data, struct zwp_input_method_context_v1 *c, uint32_t new_serial) {
    (void)data; (void)c;
    serial = new_serial;
    say("commit_state %u", new_serial);
}

static void handle_preferred_language(void *data, struct zwp_input_method_context_v1 *c, const char *language) {
    (void)data; (void)c; (void)language;
}

static const struct zwp_input_method_context_v1_listener context_listener = {
    handle_surrounding, handle_reset, handle_content_type, handle_invoke_action, handle_commit_state,
    handle_preferred_language,
};

static void handle_activate(void *data, struct zwp_input_method_v1 *im, struct zwp_input_method_context_v1 *c) {
    (void)data; (void)im;
    if (context) zwp_input_method_context_v1_destroy(context);
    context = c;
    serial = 0;
    free(surrounding);
    surrounding = NULL;
    zwp_input_method_context_v1_add_listener(context, &context_listener, NULL);
    activations++;
    say("activate");
}

static void handle_deactivate(void *data, struct zwp_input_method_v1 *im, struct zwp_input_method_context_v1 *c) {
    (void)data; (void)im;
    if (c == context) context = NULL;
    zwp_input_method_context_v1_destroy(c);
    deactivations++;
    say("deactivate");
}

static const struct zwp_input_method_v1_listener input_method_listener = {handle_activate, handle_deactivate};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data; (void)version;
    if (strcmp(interface, zwp_input_method_v1_interface.name) == 0) {
        input_method = wl_registry_bind(registry, name, &zwp_input_method_v1_interface, 1);
        zwp_input_method_v1_add_listener(input_method, &input_method_listener, NULL);
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}

static const struct wl_registry_listener registry_listener = {global, global_remove};

int main(void) {
    const char *script = getenv("DAMASK_TEST_IM_SCRIPT"), *log_path = getenv("DAMASK_TEST_IM_LOG");
    log_file = log_path ? fopen(log_path, "a") : stderr;
    if (!log_file) { perror(log_path); return 1; }
    if (!script) fail("(DAMASK_TEST_IM_SCRIPT unset)", 0, "no script");
    load(script);
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) { say("error: cannot connect"); return 1; }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!input_method) { say("error: no zwp_input_method_v1 (not Weston's input method client?)"); return 1; }
    command_path = getenv("DAMASK_IME_COMMANDS");
    if (command_path && *command_path) {
        /* Read and write: the FIFO never reports end of file when a writer closes it. */
        command_fd = open(command_path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
        if (command_fd < 0) fail(command_path, 0, strerror(errno));
    }
    say("ready");
    run(display);
    for (;;) {
        while (wl_display_prepare_read(display) != 0) wl_display_dispatch_pending(display);
        run(display);
        wl_display_flush(display);
        struct pollfd fds[2] = {{wl_display_get_fd(display), POLLIN, 0}, {command_fd, POLLIN, 0}};
        if (poll(fds, command_fd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR) {
            wl_display_cancel_read(display);
            break;
        }
        if (fds[0].revents & POLLIN) {
            if (wl_display_read_events(display) < 0) break;
        } else {
            wl_display_cancel_read(display);
        }
        if (fds[0].revents & (POLLERR | POLLHUP)) break;
        if (wl_display_dispatch_pending(display) < 0) break;
        if (command_fd >= 0 && (fds[1].revents & POLLIN)) read_commands();
        run(display);
    }
    say("disconnected");
    return 0;
}
