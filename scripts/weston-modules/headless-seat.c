/*
 * headless-seat.so: gives a headless Weston a seat ("default", with a pointer and a
 * keyboard), as a desktop session has one.
 *
 * Weston's headless backend creates no input devices, and some clients refuse to start
 * without a wl_seat (foot: "no seats available"). damask-bench's start-up suite loads this
 * module so that damask-demo and foot start under exactly the same compositor.
 *
 * No events are sent on the seat unless DAMASK_SEAT_KEYS names a FIFO: then each line read
 * from it, `down CODE` or `up CODE` (an evdev key code, e.g. 30 for KEY_A), is a key of
 * the seat's keyboard, delivered to the client with keyboard focus as a real keyboard's
 * would be (damask-bench's typing-peers suite types through it). With DAMASK_SEAT_TRACE
 * (a file) as well, the module appends to it `key down CODE NS` when it delivers a key and
 * `commit PID NS` for every wl_surface.commit request it dispatches (PID: the client's
 * process), NS from CLOCK_MONOTONIC: key→commit latency measured in the compositor.
 * A malformed line is reported in Weston's log and skipped.
 *
 * weston_seat_init, weston_seat_init_pointer and weston_seat_init_keyboard are exported
 * by libweston-10 but declared only in its internal header (backends call them), so they
 * are declared here with libweston 10's signatures.
 *
 * Built by scripts/with-weston --seat:
 *   gcc -shared -fPIC $(pkg-config --cflags libweston-10) headless-seat.c
 * The seat lives (module-owned, zero-initialised) until the compositor is destroyed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <libweston/libweston.h>

struct xkb_keymap;

void weston_seat_init(struct weston_seat *seat, struct weston_compositor *compositor, const char *seat_name);
int weston_seat_init_pointer(struct weston_seat *seat);
int weston_seat_init_keyboard(struct weston_seat *seat, struct xkb_keymap *keymap);
void weston_seat_release(struct weston_seat *seat);
void notify_key(struct weston_seat *seat, const struct timespec *time, uint32_t key,
		enum wl_keyboard_key_state state, enum weston_key_state_update update_state);

/* Owns the FIFO's fd, its event source, the trace file and the protocol logger (all
 * released in compositor_destroyed). */
struct headless_seat {
	struct weston_seat seat;
	struct wl_listener destroy_listener;
	int keys_fd;
	struct wl_event_source *keys_source;
	FILE *trace;
	struct wl_protocol_logger *logger;
	char pending[256];
	size_t pending_length;
};

static uint64_t
monotonic_ns(struct timespec *now)
{
	clock_gettime(CLOCK_MONOTONIC, now);
	return (uint64_t)now->tv_sec * 1000000000u + (uint64_t)now->tv_nsec;
}

static void
key_line(struct headless_seat *owner, const char *line)
{
	char phase[8];
	unsigned code;
	struct timespec now;
	uint64_t ns;
	int down;

	if (sscanf(line, "%7s %u", phase, &code) != 2 ||
	    (strcmp(phase, "down") != 0 && strcmp(phase, "up") != 0) || code > 767) {
		weston_log("headless-seat: DAMASK_SEAT_KEYS: bad line \"%s\" (want `down CODE` or `up CODE`)\n", line);
		return;
	}
	down = strcmp(phase, "down") == 0;
	ns = monotonic_ns(&now);
	if (owner->trace && down) {
		fprintf(owner->trace, "key down %u %llu\n", code, (unsigned long long)ns);
		fflush(owner->trace);
	}
	notify_key(&owner->seat, &now, code,
		   down ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED,
		   STATE_UPDATE_AUTOMATIC);
}

static int
keys_readable(int fd, uint32_t mask, void *data)
{
	struct headless_seat *owner = data;
	char buffer[256];
	ssize_t count = read(fd, buffer, sizeof buffer);
	ssize_t i;
	(void)mask;
	for (i = 0; i < count; i++) {
		if (buffer[i] == '\n') {
			owner->pending[owner->pending_length] = '\0';
			key_line(owner, owner->pending);
			owner->pending_length = 0;
		} else if (owner->pending_length < sizeof owner->pending - 1) {
			owner->pending[owner->pending_length++] = buffer[i];
		}
	}
	return 0;
}

static void
log_commit(void *data, enum wl_protocol_logger_type type, const struct wl_protocol_logger_message *message)
{
	struct headless_seat *owner = data;
	struct timespec now;
	pid_t pid;

	if (type != WL_PROTOCOL_LOGGER_REQUEST || strcmp(message->message->name, "commit") != 0 ||
	    strcmp(wl_resource_get_class(message->resource), "wl_surface") != 0)
		return;
	wl_client_get_credentials(wl_resource_get_client(message->resource), &pid, NULL, NULL);
	fprintf(owner->trace, "commit %d %llu\n", (int)pid, (unsigned long long)monotonic_ns(&now));
	fflush(owner->trace);
}

/* Reads DAMASK_SEAT_KEYS and DAMASK_SEAT_TRACE; returns -1 when one is set but cannot be
 * opened. */
static int
start_keys(struct headless_seat *owner, struct weston_compositor *compositor)
{
	const char *keys = getenv("DAMASK_SEAT_KEYS");
	const char *trace = getenv("DAMASK_SEAT_TRACE");

	owner->keys_fd = -1;
	if (!keys || !*keys)
		return 0;
	/* Read and write: the FIFO never reports end-of-file when a writer closes it. */
	owner->keys_fd = open(keys, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (owner->keys_fd < 0) {
		weston_log("headless-seat: DAMASK_SEAT_KEYS: cannot open %s\n", keys);
		return -1;
	}
	owner->keys_source = wl_event_loop_add_fd(wl_display_get_event_loop(compositor->wl_display),
						  owner->keys_fd, WL_EVENT_READABLE, keys_readable, owner);
	if (trace && *trace) {
		owner->trace = fopen(trace, "a");
		if (!owner->trace) {
			weston_log("headless-seat: DAMASK_SEAT_TRACE: cannot open %s\n", trace);
			return -1;
		}
		owner->logger = wl_display_add_protocol_logger(compositor->wl_display, log_commit, owner);
	}
	weston_log("headless-seat: keys from %s%s%s\n", keys, owner->trace ? ", trace to " : "",
		   owner->trace ? trace : "");
	return 0;
}

static void
stop_keys(struct headless_seat *owner)
{
	if (owner->logger)
		wl_protocol_logger_destroy(owner->logger);
	if (owner->keys_source)
		wl_event_source_remove(owner->keys_source);
	if (owner->keys_fd >= 0)
		close(owner->keys_fd);
	if (owner->trace)
		fclose(owner->trace);
}

static void
compositor_destroyed(struct wl_listener *listener, void *data)
{
	struct headless_seat *owner = wl_container_of(listener, owner, destroy_listener);
	(void)data;
	wl_list_remove(&owner->destroy_listener.link);
	stop_keys(owner);
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
	if (start_keys(owner, compositor) < 0) {
		stop_keys(owner);
		weston_seat_release(&owner->seat);
		free(owner);
		return -1;
	}
	owner->destroy_listener.notify = compositor_destroyed;
	wl_signal_add(&compositor->destroy_signal, &owner->destroy_listener);
	weston_log("headless-seat: seat \"default\" with a pointer and a keyboard\n");
	return 0;
}
