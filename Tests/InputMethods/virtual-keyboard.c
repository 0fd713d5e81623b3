/*
 * One virtual keyboard (virtual-keyboard-unstable-v1) that lives as long as the program,
 * with the US layout, for Damask's tests under sway: keys typed through it reach the seat's
 * input method (Fcitx 5, through its keyboard grab) or the focused window.
 *
 * `wtype` makes a new keyboard with a new keymap for every call, and sway 1.7 then lost
 * keys here (the keymap changes while an input method re-grabs the keyboard); one keyboard
 * with one keymap for the whole test does not.
 *
 * Commands, one per line on stdin:
 *   type TEXT     presses and releases the key of each character of TEXT (ASCII the US
 *                 layout has; Shift where the character needs it)
 *   key [ctrl+]NAME  presses and releases the key of the keysym NAME (Return, BackSpace, a,
 *                 …), with Control held when asked for
 *   sync          a round trip; then prints "synced"
 * End of file on stdin ends the program (exit 0).
 * Reports on stdout: "ready" once the keyboard and its keymap exist (after a round trip),
 * "typed N" after each type/key command (N key presses sent), "error MESSAGE" then exit 1.
 *
 * Built by the tests with gcc against wayland-client and xkbcommon, and the glue
 * wayland-scanner makes from virtual-keyboard-unstable-v1.xml next to this file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

#include "virtual-keyboard-unstable-v1-client-protocol.h"

/* Everything the program holds; one instance, owned by main for the program's lifetime. */
struct state {
    struct wl_display *display;
    struct wl_seat *seat;
    struct zwp_virtual_keyboard_manager_v1 *manager;
    struct zwp_virtual_keyboard_v1 *keyboard;
    struct xkb_keymap *keymap;
    uint32_t shift_mask;
    uint32_t control_mask;
};

static void fail(const char *message) {
    printf("error %s\n", message);
    fflush(stdout);
    exit(1);
}

static uint32_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

static void handle_global(
    void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    struct state *state = data;
    (void)version;
    if (strcmp(interface, wl_seat_interface.name) == 0 && !state->seat) {
        state->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    } else if (strcmp(interface, zwp_virtual_keyboard_manager_v1_interface.name) == 0) {
        state->manager = wl_registry_bind(registry, name, &zwp_virtual_keyboard_manager_v1_interface, 1);
    }
}

static void handle_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {
    .global = handle_global,
    .global_remove = handle_global_remove,
};

/* Finds the key and whether Shift is needed for `keysym` (level 0 or 1 of layout 0). */
static int find_key(struct state *state, xkb_keysym_t keysym, xkb_keycode_t *code, int *shifted) {
    xkb_keycode_t min = xkb_keymap_min_keycode(state->keymap), max = xkb_keymap_max_keycode(state->keymap);
    for (int level = 0; level < 2; level++) {
        for (xkb_keycode_t key = min; key <= max; key++) {
            const xkb_keysym_t *syms = NULL;
            int count = xkb_keymap_key_get_syms_by_level(state->keymap, key, 0, (xkb_level_index_t)level, &syms);
            if (count == 1 && syms[0] == keysym) {
                *code = key;
                *shifted = level;
                return 1;
            }
        }
    }
    return 0;
}

/* Presses and releases the key for `keysym`, with Shift around it when needed and the
 * modifiers in `held` (a mask) around that. */
static void tap(struct state *state, xkb_keysym_t keysym, uint32_t held) {
    xkb_keycode_t code;
    int shifted;
    if (!find_key(state, keysym, &code, &shifted)) fail("no key in the US layout gives that character");
    uint32_t mask = held | (shifted ? state->shift_mask : 0);
    if (mask) zwp_virtual_keyboard_v1_modifiers(state->keyboard, mask, 0, 0, 0);
    /* Wayland key codes are evdev codes: the xkb key code minus 8. */
    zwp_virtual_keyboard_v1_key(state->keyboard, now_ms(), code - 8, WL_KEYBOARD_KEY_STATE_PRESSED);
    zwp_virtual_keyboard_v1_key(state->keyboard, now_ms(), code - 8, WL_KEYBOARD_KEY_STATE_RELEASED);
    if (mask) zwp_virtual_keyboard_v1_modifiers(state->keyboard, 0, 0, 0, 0);
}

static void run_command(struct state *state, char *line) {
    char *rest = strchr(line, ' ');
    if (rest) *rest++ = '\0';
    if (strcmp(line, "type") == 0 && rest) {
        int count = 0;
        for (const unsigned char *p = (const unsigned char *)rest; *p; p++, count++) {
            if (*p >= 0x80) fail("type takes ASCII only");
            tap(state, xkb_utf32_to_keysym(*p), 0);
        }
        printf("typed %d\n", count);
    } else if (strcmp(line, "key") == 0 && rest) {
        uint32_t held = 0;
        if (strncmp(rest, "ctrl+", 5) == 0 && rest[5]) {
            held = state->control_mask;
            rest += 5;
        }
        xkb_keysym_t keysym = xkb_keysym_from_name(rest, XKB_KEYSYM_NO_FLAGS);
        if (keysym == XKB_KEY_NoSymbol) fail("unknown keysym name");
        tap(state, keysym, held);
        puts("typed 1");
    } else if (strcmp(line, "sync") == 0) {
        if (wl_display_roundtrip(state->display) < 0) fail("the connection broke");
        puts("synced");
    } else {
        fail("unknown command (type, key, sync)");
    }
    if (wl_display_flush(state->display) < 0 && errno != EAGAIN) fail("the connection broke");
    fflush(stdout);
}

/* Uploads the US keymap; the memfd is ours and closed once sent (the compositor has a copy). */
static void upload_keymap(struct state *state) {
    struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    struct xkb_rule_names names = {.rules = "evdev", .model = "pc105", .layout = "us"};
    state->keymap = xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
    if (!state->keymap) fail("cannot compile the US keymap (xkb-data installed?)");
    state->shift_mask = 1u << xkb_keymap_mod_get_index(state->keymap, XKB_MOD_NAME_SHIFT);
    state->control_mask = 1u << xkb_keymap_mod_get_index(state->keymap, XKB_MOD_NAME_CTRL);
    char *text = xkb_keymap_get_as_string(state->keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
    size_t size = strlen(text) + 1;
    int fd = memfd_create("damask-virtual-keyboard", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) < 0) fail("memfd_create failed");
    void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) fail("mmap failed");
    memcpy(map, text, size);
    munmap(map, size);
    free(text);
    zwp_virtual_keyboard_v1_keymap(state->keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, (uint32_t)size);
    close(fd);
    xkb_context_unref(context);
}

int main(void) {
    struct state state = {0};
    state.display = wl_display_connect(NULL);
    if (!state.display) fail("cannot connect to $WAYLAND_DISPLAY");
    struct wl_registry *registry = wl_display_get_registry(state.display);
    wl_registry_add_listener(registry, &registry_listener, &state);
    wl_display_roundtrip(state.display);
    if (!state.seat) fail("the compositor has no wl_seat");
    if (!state.manager) fail("the compositor has no zwp_virtual_keyboard_manager_v1");
    state.keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(state.manager, state.seat);
    upload_keymap(&state);
    if (wl_display_roundtrip(state.display) < 0) fail("the connection broke");
    puts("ready");
    fflush(stdout);

    char buffer[65536];
    size_t used = 0;
    struct pollfd fds[2] = {
        {.fd = wl_display_get_fd(state.display), .events = POLLIN},
        {.fd = STDIN_FILENO, .events = POLLIN},
    };
    for (;;) {
        while (wl_display_prepare_read(state.display) != 0) wl_display_dispatch_pending(state.display);
        wl_display_flush(state.display);
        if (poll(fds, 2, -1) < 0 && errno != EINTR) fail("poll failed");
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (wl_display_read_events(state.display) < 0) fail("the connection broke");
        } else {
            wl_display_cancel_read(state.display);
        }
        if (wl_display_dispatch_pending(state.display) < 0) fail("the connection broke");
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
    }
    wl_display_roundtrip(state.display);
    zwp_virtual_keyboard_v1_destroy(state.keyboard);
    wl_display_disconnect(state.display);
    return 0;
}
