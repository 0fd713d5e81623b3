// libdbus-1, opened when the program first talks D-Bus rather than at exec.
//
// The demo links no D-Bus library: Debian's libdbus-1.so.3 brings libsystemd, libgcrypt,
// liblzma, libzstd, liblz4, libcap and libgpg-error with it, and mapping and relocating those
// eight libraries at exec cost 1.3 MiB of resident memory before the first frame, whether or
// not a session bus or an assistive technology is there (docs/performance.md, "Start-up and
// memory against foot"). Each `dbus_*` function DamaskAccessibility calls is defined here
// with libdbus's own prototype (from <dbus/dbus.h>, so the compiler checks each one) and
// forwards to the library's, looked up once with dlsym. The definitions are hidden: they
// never interpose on libdbus's own calls between its functions.
//
// Ownership: the library handle is opened once and never closed (libdbus keeps threads'
// and connections' state in its own globals); the looked-up addresses live as long.
// If the library cannot be opened, the two connecting functions fail with a D-Bus error
// naming it, so the bridge reports "no session bus"; any other function can only be called
// on a connection or message the library made, and aborts with the same message.
#define _GNU_SOURCE
#include "CDBusLoader.h"
// libdbus's declarations, hidden here (its header makes them exported by default).
#define DBUS_EXPORT __attribute__((visibility("hidden")))
#include <dbus/dbus.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma GCC visibility push(hidden)

static void *library;
static char loadFailure[512];
static pthread_once_t loadOnce = PTHREAD_ONCE_INIT;

static void loadLibrary(void) {
    library = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(loadFailure, sizeof loadFailure, "libdbus-1.so.3 could not be loaded: %s",
                 reason ? reason : "unknown reason");
    }
}

static bool loaded(void) {
    pthread_once(&loadOnce, loadLibrary);
    return library != NULL;
}

/// The address of libdbus's `name`, cached in `*cache`; aborts naming what is missing.
static void *resolve(void **cache, const char *name) {
    void *found = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (found) return found;
    if (!loaded()) {
        fprintf(stderr, "damask: %s (needed for %s)\n", loadFailure, name);
        abort();
    }
    found = dlsym(library, name);
    if (!found) {
        fprintf(stderr, "damask: libdbus-1.so.3 has no %s\n", name);
        abort();
    }
    __atomic_store_n(cache, found, __ATOMIC_RELEASE);
    return found;
}

#define FORWARD(type, name, params, args)                                     \
    type name params {                                                        \
        static void *cache;                                                   \
        type (*forwarded) params = (type (*) params)resolve(&cache, #name);   \
        return forwarded args;                                                \
    }

#define FORWARD_VOID(name, params, args)                                      \
    void name params {                                                        \
        static void *cache;                                                   \
        void (*forwarded) params = (void (*) params)resolve(&cache, #name);   \
        forwarded args;                                                       \
    }

/// Sets `error` as libdbus would, without libdbus (which could not be loaded).
static void failWithoutLibrary(DBusError *error) {
    if (!error) return;
    error->name = DBUS_ERROR_FAILED;
    error->message = loadFailure;
}

// Connecting: fail with an error, not an abort, when the library is missing.
DBusConnection *dbus_bus_get_private(DBusBusType type, DBusError *error) {
    if (!loaded()) { failWithoutLibrary(error); return NULL; }
    static void *cache;
    DBusConnection *(*function)(DBusBusType, DBusError *) =
        (DBusConnection *(*)(DBusBusType, DBusError *))resolve(&cache, "dbus_bus_get_private");
    return function(type, error);
}

DBusConnection *dbus_connection_open_private(const char *address, DBusError *error) {
    if (!loaded()) { failWithoutLibrary(error); return NULL; }
    static void *cache;
    DBusConnection *(*function)(const char *, DBusError *) =
        (DBusConnection *(*)(const char *, DBusError *))resolve(&cache, "dbus_connection_open_private");
    return function(address, error);
}

// Errors: initialised before any connection is tried; without the library, an error set by
// failWithoutLibrary is cleared here (its strings are static).
void dbus_error_init(DBusError *error) {
    if (!loaded()) { memset(error, 0, sizeof *error); return; }
    static void *cache;
    void (*function)(DBusError *) = (void (*)(DBusError *))resolve(&cache, "dbus_error_init");
    function(error);
}

void dbus_error_free(DBusError *error) {
    if (!loaded()) { memset(error, 0, sizeof *error); return; }
    static void *cache;
    void (*function)(DBusError *) = (void (*)(DBusError *))resolve(&cache, "dbus_error_free");
    function(error);
}

FORWARD(dbus_bool_t, dbus_bus_register, (DBusConnection *connection, DBusError *error), (connection, error))
FORWARD(const char *, dbus_bus_get_unique_name, (DBusConnection *connection), (connection))
FORWARD_VOID(dbus_connection_close, (DBusConnection *connection), (connection))
FORWARD_VOID(dbus_connection_unref, (DBusConnection *connection), (connection))
FORWARD_VOID(dbus_connection_flush, (DBusConnection *connection), (connection))
FORWARD(dbus_bool_t, dbus_connection_send,
        (DBusConnection *connection, DBusMessage *message, dbus_uint32_t *client_serial),
        (connection, message, client_serial))
FORWARD(DBusDispatchStatus, dbus_connection_dispatch, (DBusConnection *connection), (connection))
FORWARD_VOID(dbus_connection_set_exit_on_disconnect, (DBusConnection *connection, dbus_bool_t exit_on_disconnect),
             (connection, exit_on_disconnect))
FORWARD(dbus_bool_t, dbus_connection_add_filter,
        (DBusConnection *connection, DBusHandleMessageFunction function, void *user_data,
         DBusFreeFunction free_data_function),
        (connection, function, user_data, free_data_function))
FORWARD_VOID(dbus_connection_remove_filter,
             (DBusConnection *connection, DBusHandleMessageFunction function, void *user_data),
             (connection, function, user_data))
FORWARD(dbus_bool_t, dbus_connection_set_watch_functions,
        (DBusConnection *connection, DBusAddWatchFunction add_function, DBusRemoveWatchFunction remove_function,
         DBusWatchToggledFunction toggled_function, void *data, DBusFreeFunction free_data_function),
        (connection, add_function, remove_function, toggled_function, data, free_data_function))
FORWARD_VOID(dbus_connection_set_dispatch_status_function,
             (DBusConnection *connection, DBusDispatchStatusFunction function, void *data,
              DBusFreeFunction free_data_function),
             (connection, function, data, free_data_function))

FORWARD(int, dbus_watch_get_unix_fd, (DBusWatch *watch), (watch))
FORWARD(unsigned int, dbus_watch_get_flags, (DBusWatch *watch), (watch))
FORWARD(dbus_bool_t, dbus_watch_get_enabled, (DBusWatch *watch), (watch))
FORWARD(dbus_bool_t, dbus_watch_handle, (DBusWatch *watch, unsigned int flags), (watch, flags))

FORWARD(DBusMessage *, dbus_message_new_method_call,
        (const char *bus_name, const char *path, const char *iface, const char *method),
        (bus_name, path, iface, method))
FORWARD(DBusMessage *, dbus_message_new_method_return, (DBusMessage *method_call), (method_call))
FORWARD(DBusMessage *, dbus_message_new_signal, (const char *path, const char *iface, const char *name),
        (path, iface, name))
FORWARD(DBusMessage *, dbus_message_new_error,
        (DBusMessage *reply_to, const char *error_name, const char *error_message),
        (reply_to, error_name, error_message))
FORWARD_VOID(dbus_message_unref, (DBusMessage *message), (message))
FORWARD(int, dbus_message_get_type, (DBusMessage *message), (message))
FORWARD(const char *, dbus_message_get_sender, (DBusMessage *message), (message))
FORWARD(const char *, dbus_message_get_path, (DBusMessage *message), (message))
FORWARD(const char *, dbus_message_get_interface, (DBusMessage *message), (message))
FORWARD(const char *, dbus_message_get_member, (DBusMessage *message), (message))
FORWARD(const char *, dbus_message_get_error_name, (DBusMessage *message), (message))
FORWARD(const char *, dbus_message_get_signature, (DBusMessage *message), (message))
FORWARD(dbus_uint32_t, dbus_message_get_reply_serial, (DBusMessage *message), (message))
FORWARD(dbus_bool_t, dbus_message_get_no_reply, (DBusMessage *message), (message))
FORWARD_VOID(dbus_message_set_no_reply, (DBusMessage *message, dbus_bool_t no_reply), (message, no_reply))

FORWARD(dbus_bool_t, dbus_message_iter_init, (DBusMessage *message, DBusMessageIter *iter), (message, iter))
FORWARD_VOID(dbus_message_iter_init_append, (DBusMessage *message, DBusMessageIter *iter), (message, iter))
FORWARD(int, dbus_message_iter_get_arg_type, (DBusMessageIter *iter), (iter))
FORWARD(char *, dbus_message_iter_get_signature, (DBusMessageIter *iter), (iter))
FORWARD_VOID(dbus_message_iter_get_basic, (DBusMessageIter *iter, void *value), (iter, value))
FORWARD_VOID(dbus_message_iter_recurse, (DBusMessageIter *iter, DBusMessageIter *sub), (iter, sub))
FORWARD(dbus_bool_t, dbus_message_iter_next, (DBusMessageIter *iter), (iter))
FORWARD(dbus_bool_t, dbus_message_iter_append_basic, (DBusMessageIter *iter, int type, const void *value),
        (iter, type, value))
FORWARD(dbus_bool_t, dbus_message_iter_open_container,
        (DBusMessageIter *iter, int type, const char *contained_signature, DBusMessageIter *sub),
        (iter, type, contained_signature, sub))
FORWARD(dbus_bool_t, dbus_message_iter_close_container, (DBusMessageIter *iter, DBusMessageIter *sub), (iter, sub))
FORWARD_VOID(dbus_message_iter_abandon_container, (DBusMessageIter *iter, DBusMessageIter *sub), (iter, sub))

FORWARD_VOID(dbus_free, (void *memory), (memory))

#pragma GCC visibility pop
