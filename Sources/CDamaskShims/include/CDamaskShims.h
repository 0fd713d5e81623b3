// C shims for what Swift cannot do safely or at all by itself.
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>
#include <wayland-cursor.h>
#include <CWaylandProtocols.h>

// MARK: - Interface addresses
//
// Swift must never take the address of an imported `wl_interface` constant itself: in
// release builds `withUnsafePointer(to:)` may point at a stack temporary. These return
// the real, static addresses.
const struct wl_interface *damask_wl_compositor_interface(void);
const struct wl_interface *damask_wl_subcompositor_interface(void);
const struct wl_interface *damask_wl_shm_interface(void);
const struct wl_interface *damask_wl_seat_interface(void);
const struct wl_interface *damask_wl_output_interface(void);
const struct wl_interface *damask_xdg_wm_base_interface(void);
const struct wl_interface *damask_wp_viewporter_interface(void);
const struct wl_interface *damask_wp_fractional_scale_manager_v1_interface(void);
const struct wl_interface *damask_wp_presentation_interface(void);
const struct wl_interface *damask_zxdg_decoration_manager_v1_interface(void);
const struct wl_interface *damask_wl_data_device_manager_interface(void);
const struct wl_interface *damask_zwp_primary_selection_device_manager_v1_interface(void);
const struct wl_interface *damask_zwp_text_input_manager_v3_interface(void);
const struct wl_interface *damask_zwp_text_input_manager_v1_interface(void);

// MARK: - Shared memory

/// Creates an anonymous, close-on-exec, sealable memory file of `size` bytes, then seals
/// it against shrinking (the compositor maps it; a shrink would SIGBUS it).
/// Returns the file descriptor, owned by the caller, or -1 with errno set.
int damask_shm_create(const char *name, size_t size);

// MARK: - Logging

/// Routes libwayland's client log messages into a buffer instead of stderr, so that a
/// protocol error's message can be reported by the app. Call once before connecting.
void damask_wayland_capture_log(void);

/// Copies the last message libwayland logged (without a trailing newline) into `buffer`
/// (always NUL-terminated) and returns its length; 0 when nothing was logged.
size_t damask_wayland_last_log(char *buffer, size_t capacity);

/// Forgets the last logged message, so that a later error does not quote a stale one.
void damask_wayland_clear_log(void);

// MARK: - Main dispatch queue
//
// libdispatch exports, for run loops that drain the main queue themselves (Foundation's
// CFRunLoop uses the same two entry points), the descriptor it signals when work is queued
// on the main queue and the function that runs that work. Damask's `MainLoop` sleeps in
// one poll(2) on that descriptor and the Wayland socket, so an event wakes one thread.

/// The eventfd libdispatch writes when the main queue gains work. Owned by libdispatch:
/// never close it. Call on the main thread.
int damask_main_queue_descriptor(void);

/// Clears the main queue's eventfd (when it is readable) and runs the work queued on the
/// main queue. Call on the main thread only.
void damask_main_queue_drain(void);

// MARK: - Allocator

/// Fixes glibc malloc's mmap threshold at `bytes` (`mallopt(M_MMAP_THRESHOLD, bytes)`):
/// blocks of at least that size are mapped on their own and unmapped when freed, and glibc
/// stops raising the threshold after such a free (which would otherwise carve later large
/// temporaries from the heap, whose high-water mark stays resident). Returns 1 when glibc
/// accepted the value. Call early, on the main thread, before other threads allocate.
int damask_set_malloc_mmap_threshold(int bytes);

// MARK: - Listeners called without libffi
//
// `wl_*_add_listener` has libwayland call a listener through libffi: for every event it
// prepares a call interface (`ffi_prep_cif`) and makes the call (`ffi_call`), some 45 lines
// of libffi's code a wake-up fetches cold. These set the same listener table, which stays
// the caller's and must outlive the proxy, through `wl_proxy_add_dispatcher` instead: a
// dispatcher of this file calls the table's member for the event's opcode with its
// arguments, as libffi would, and `data` becomes the proxy's user data as with
// `wl_*_add_listener`. For the proxies every typed key hears from (docs/performance.md,
// "Listeners without libffi"). Return 0, or -1 when the proxy has a listener already.
// Call on the thread that dispatches the proxy's queue.

int damask_wl_keyboard_add_listener(
    struct wl_keyboard *keyboard, const struct wl_keyboard_listener *listener, void *data);
int damask_wl_buffer_add_listener(struct wl_buffer *buffer, const struct wl_buffer_listener *listener, void *data);
int damask_wl_callback_add_listener(
    struct wl_callback *callback, const struct wl_callback_listener *listener, void *data);
