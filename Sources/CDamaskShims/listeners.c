// Listener tables called through `wl_proxy_add_dispatcher` rather than libffi (see
// CDamaskShims.h, "Listeners called without libffi").
//
// libwayland checks each event against the interface's signature before it dispatches it
// (an event that does not match is a protocol error and reaches no dispatcher), so the
// arguments here have the types the signature names. Events are numbered in the order the
// protocol lists them, the order of the listener struct's members; a debug build checks
// the number against the event's name (SwiftPM defines DEBUG for debug builds of C targets;
// release builds compare nothing).
#include "CDamaskShims.h"

#include <assert.h>
#include <string.h>

#if defined(DEBUG)
/// Whether `message` is the event named `name`.
static int is_event(const struct wl_message *message, const char *name) {
    return message != NULL && strcmp(message->name, name) == 0;
}
#define ASSERT_EVENT(message, name) assert(is_event((message), (name)))
#else
#define ASSERT_EVENT(message, name) ((void)(message))
#endif

// wl_keyboard events, in protocol order.
enum { KEYBOARD_KEYMAP, KEYBOARD_ENTER, KEYBOARD_LEAVE, KEYBOARD_KEY, KEYBOARD_MODIFIERS, KEYBOARD_REPEAT_INFO };

static int dispatch_keyboard(
    const void *implementation, void *target, uint32_t opcode, const struct wl_message *message,
    union wl_argument *arguments) {
    const struct wl_keyboard_listener *listener = implementation;
    struct wl_keyboard *keyboard = target;
    void *data = wl_proxy_get_user_data((struct wl_proxy *)keyboard);
    switch (opcode) {
    case KEYBOARD_KEYMAP:
        ASSERT_EVENT(message, "keymap");
        if (listener->keymap) listener->keymap(data, keyboard, arguments[0].u, arguments[1].h, arguments[2].u);
        return 0;
    case KEYBOARD_ENTER:
        ASSERT_EVENT(message, "enter");
        if (listener->enter) {
            listener->enter(data, keyboard, arguments[0].u, (struct wl_surface *)arguments[1].o, arguments[2].a);
        }
        return 0;
    case KEYBOARD_LEAVE:
        ASSERT_EVENT(message, "leave");
        if (listener->leave) listener->leave(data, keyboard, arguments[0].u, (struct wl_surface *)arguments[1].o);
        return 0;
    case KEYBOARD_KEY:
        ASSERT_EVENT(message, "key");
        if (listener->key) listener->key(data, keyboard, arguments[0].u, arguments[1].u, arguments[2].u, arguments[3].u);
        return 0;
    case KEYBOARD_MODIFIERS:
        ASSERT_EVENT(message, "modifiers");
        if (listener->modifiers) {
            listener->modifiers(
                data, keyboard, arguments[0].u, arguments[1].u, arguments[2].u, arguments[3].u, arguments[4].u);
        }
        return 0;
    case KEYBOARD_REPEAT_INFO:
        ASSERT_EVENT(message, "repeat_info");
        if (listener->repeat_info) listener->repeat_info(data, keyboard, arguments[0].i, arguments[1].i);
        return 0;
    default:
        return -1;  // an event of a later version than the listener knows: nothing to call
    }
}

int damask_wl_keyboard_add_listener(
    struct wl_keyboard *keyboard, const struct wl_keyboard_listener *listener, void *data) {
    return wl_proxy_add_dispatcher((struct wl_proxy *)keyboard, dispatch_keyboard, listener, data);
}

static int dispatch_buffer(
    const void *implementation, void *target, uint32_t opcode, const struct wl_message *message,
    union wl_argument *arguments) {
    const struct wl_buffer_listener *listener = implementation;
    (void)arguments;
    if (opcode != 0) return -1;  // wl_buffer has one event, release
    ASSERT_EVENT(message, "release");
    if (listener->release) listener->release(wl_proxy_get_user_data(target), target);
    return 0;
}

int damask_wl_buffer_add_listener(struct wl_buffer *buffer, const struct wl_buffer_listener *listener, void *data) {
    return wl_proxy_add_dispatcher((struct wl_proxy *)buffer, dispatch_buffer, listener, data);
}

static int dispatch_callback(
    const void *implementation, void *target, uint32_t opcode, const struct wl_message *message,
    union wl_argument *arguments) {
    const struct wl_callback_listener *listener = implementation;
    if (opcode != 0) return -1;  // wl_callback has one event, done
    ASSERT_EVENT(message, "done");
    if (listener->done) listener->done(wl_proxy_get_user_data(target), target, arguments[0].u);
    return 0;
}

int damask_wl_callback_add_listener(
    struct wl_callback *callback, const struct wl_callback_listener *listener, void *data) {
    return wl_proxy_add_dispatcher((struct wl_proxy *)callback, dispatch_callback, listener, data);
}
