/*
 * headless-seat.so: gives a headless Weston a seat ("default", with a pointer and a
 * keyboard), as a desktop session has one.
 *
 * Weston's headless backend creates no input devices, and some clients refuse to start
 * without a wl_seat (foot: "no seats available"). damask-bench's start-up suite loads this
 * module so that damask-demo and foot start under exactly the same compositor. No events
 * are ever sent on the seat.
 *
 * weston_seat_init, weston_seat_init_pointer and weston_seat_init_keyboard are exported
 * by libweston-10 but declared only in its internal header (backends call them), so they
 * are declared here with libweston 10's signatures.
 *
 * Built by scripts/with-weston --seat:
 *   gcc -shared -fPIC $(pkg-config --cflags libweston-10) headless-seat.c
 * The seat lives (module-owned, zero-initialised) until the compositor is destroyed.
 */
#include <stdlib.h>
#include <wayland-server-core.h>
#include <libweston/libweston.h>

struct xkb_keymap;

void weston_seat_init(struct weston_seat *seat, struct weston_compositor *compositor, const char *seat_name);
int weston_seat_init_pointer(struct weston_seat *seat);
int weston_seat_init_keyboard(struct weston_seat *seat, struct xkb_keymap *keymap);
void weston_seat_release(struct weston_seat *seat);

struct headless_seat {
	struct weston_seat seat;
	struct wl_listener destroy_listener;
};

static void
compositor_destroyed(struct wl_listener *listener, void *data)
{
	struct headless_seat *owner = wl_container_of(listener, owner, destroy_listener);
	(void)data;
	wl_list_remove(&owner->destroy_listener.link);
	weston_seat_release(&owner->seat);
	free(owner);
}

WL_EXPORT int
wet_module_init(struct weston_compositor *compositor, int *argc, char *argv[])
{
	struct headless_seat *owner = calloc(1, sizeof *owner);
	(void)argc;
	(void)argv;
	if (!owner)
		return -1;
	weston_seat_init(&owner->seat, compositor, "default");
	if (weston_seat_init_pointer(&owner->seat) < 0 ||
	    weston_seat_init_keyboard(&owner->seat, NULL) < 0) {
		weston_seat_release(&owner->seat);
		free(owner);
		return -1;
	}
	owner->destroy_listener.notify = compositor_destroyed;
	wl_signal_add(&compositor->destroy_signal, &owner->destroy_listener);
	weston_log("headless-seat: seat \"default\" with a pointer and a keyboard\n");
	return 0;
}
