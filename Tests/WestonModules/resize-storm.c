/*
 * resize-storm.so: a Weston module for Damask's reliability tests.
 *
 * Every millisecond it looks for a mapped toplevel whose app id is "org.damask.Storm" or
 * whose title is "Damask Storm" (a client can retitle itself to start the storm when it is
 * ready) and asks it for a new size with weston_desktop_surface_set_size. libweston-desktop
 * sends at most one configure per idle, so a timer, not a loop, is what makes every size
 * reach the client. After STORM_COUNT sizes (random, with 0x0, 1x1 and 100000x100000 among
 * them) it asks for a final STORM_FINAL_WIDTH x STORM_FINAL_HEIGHT and logs
 * "resize-storm: done N" to Weston's log.
 *
 * A tick is skipped while the client's socket holds more than a quarter of its send buffer
 * unread (SIOCOUTQ): the configures still pile up unacknowledged, but a client that stalls
 * for a moment on a loaded machine is not disconnected by libwayland for a full buffer,
 * which would end the test for a reason that is not the client's.
 *
 * Built by the tests: gcc -shared -fPIC $(pkg-config --cflags libweston-10) resize-storm.c
 * Loaded with: weston --modules=/path/resize-storm.so (scripts/with-weston --module FILE)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>
#include <wayland-server-core.h>
#include <libweston/libweston.h>
#include <libweston-desktop/libweston-desktop.h>

#define STORM_COUNT 1000
#define STORM_FINAL_WIDTH 320
#define STORM_FINAL_HEIGHT 240

struct storm {
	struct weston_compositor *compositor;
	struct wl_event_source *timer;
	int sent;
	uint32_t seed;
};

static uint32_t
next_random(struct storm *storm)
{
	/* xorshift32: deterministic, so a failing run can be repeated. */
	storm->seed ^= storm->seed << 13;
	storm->seed ^= storm->seed >> 17;
	storm->seed ^= storm->seed << 5;
	return storm->seed;
}

static int
is_storm_target(struct weston_desktop_surface *desktop_surface)
{
	const char *app_id = weston_desktop_surface_get_app_id(desktop_surface);
	const char *title = weston_desktop_surface_get_title(desktop_surface);
	return (app_id && strcmp(app_id, "org.damask.Storm") == 0) ||
	       (title && strcmp(title, "Damask Storm") == 0);
}

static struct weston_desktop_surface *
find_target(struct weston_compositor *compositor)
{
	struct weston_view *view;

	wl_list_for_each(view, &compositor->view_list, link) {
		struct weston_desktop_surface *desktop_surface;

		if (!weston_surface_is_desktop_surface(view->surface))
			continue;
		desktop_surface = weston_surface_get_desktop_surface(view->surface);
		if (desktop_surface && is_storm_target(desktop_surface))
			return desktop_surface;
	}
	return NULL;
}

/* Whether the target's client has more than a quarter of its socket's send buffer unread. */
static int
is_backlogged(struct weston_desktop_surface *target)
{
	struct wl_client *client =
		weston_desktop_client_get_client(weston_desktop_surface_get_client(target));
	int fd = wl_client_get_fd(client);
	int queued = 0, capacity = 0;
	socklen_t length = sizeof capacity;

	if (ioctl(fd, SIOCOUTQ, &queued) < 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &capacity, &length) < 0)
		return 0;
	return queued > capacity / 4;
}

static void
next_size(struct storm *storm, int32_t *width, int32_t *height)
{
	switch (storm->sent % 50) {
	case 0:
		*width = 0;
		*height = 0;
		return;
	case 1:
		*width = 1;
		*height = 1;
		return;
	case 2:
		*width = 100000;
		*height = 100000;
		return;
	default:
		*width = 1 + (int32_t)(next_random(storm) % 1600);
		*height = 1 + (int32_t)(next_random(storm) % 1200);
		return;
	}
}

static int
on_timer(void *data)
{
	struct storm *storm = data;
	struct weston_desktop_surface *target = find_target(storm->compositor);
	int32_t width, height;

	if (target && is_backlogged(target)) {
		/* wait for the client to read: try again next tick */
	} else if (target && storm->sent < STORM_COUNT) {
		next_size(storm, &width, &height);
		weston_desktop_surface_set_size(target, width, height);
		storm->sent++;
	} else if (target && storm->sent == STORM_COUNT) {
		weston_desktop_surface_set_size(target, STORM_FINAL_WIDTH, STORM_FINAL_HEIGHT);
		storm->sent++;
		weston_log("resize-storm: done %d\n", STORM_COUNT);
		return 0;  /* no more timer: the storm is over */
	}
	wl_event_source_timer_update(storm->timer, 1);
	return 0;
}

WL_EXPORT int
wet_module_init(struct weston_compositor *compositor, int *argc, char *argv[])
{
	struct wl_event_loop *loop = wl_display_get_event_loop(compositor->wl_display);
	struct storm *storm = calloc(1, sizeof *storm);

	if (!storm)
		return -1;
	storm->compositor = compositor;
	storm->seed = 0x9E3779B9u;
	storm->timer = wl_event_loop_add_timer(loop, on_timer, storm);
	if (!storm->timer) {
		free(storm);
		return -1;
	}
	wl_event_source_timer_update(storm->timer, 1);
	weston_log("resize-storm: waiting for org.damask.Storm\n");
	return 0;
}
