/*
 * hostile-compositor: a tiny Wayland compositor on libwayland-server that misbehaves on
 * purpose, for Damask's reliability tests (Tests/DamaskWaylandTests/HostileCompositorTests).
 *
 *   hostile-compositor SOCKET-NAME SCENARIO [ARGUMENT...]
 *
 * It listens on SOCKET-NAME inside $XDG_RUNTIME_DIR, prints "listening" on stdout, and
 * serves one client: wl_compositor, wl_shm, xdg_wm_base, a wl_seat with a keyboard and a
 * wl_output (plus wp_viewporter and wp_fractional_scale_manager_v1 for preferred-scale).
 * Buffers are released at the commit that attaches them; frame callbacks fire 16 ms after
 * their commit. When the window is mapped (the first commit with a buffer) it prints
 * "mapped W H" and plays the scenario; after that, every buffer of a new size is reported as
 * "buffer W H". The scenarios:
 *
 *   key-code                  a valid keymap, focus, then keys 0xFFFFFFF8 and 0xFFFFFFFF
 *   enter-keys                no keymap; focus with the keys array {0xFFFFFFFF, 0xFFFFFFF8}
 *   scale-raise S [WxH]       (configured WxH at start) output scale raised to S
 *   preferred-scale V         wp_fractional_scale_v1.preferred_scale V (120ths)
 *   scale-at-bind S           (output scale S from the start; nothing more)
 *   scale-storm N S           N output scale changes, ending at S
 *   repeat-rate               keymap, repeat_info(INT32_MAX, 0), focus, key 'a' held
 *   huge-keymap MIB           a keymap file of MIB MiB of text
 *   hangup N                  N output geometry events, then closes the connection
 *   unknown-object            wl_keyboard.enter naming an object the client never had
 *   output-unplug S           (output scale S from the start) the surface enters the
 *                             output, then the output's global is removed (unplugged)
 *   data-device V             (wl_data_device_manager offered at version V) the seat is
 *                             removed; prints "data device released" if the client sends
 *                             wl_data_device.release (a protocol error below version 2)
 *   text-input-v3             (zwp_text_input_manager_v3 offered) keyboard and text-input
 *                             focus, "focused"; then an input method's events, one step per
 *                             client commit once enabled: preedit "하", commit "한", a preedit
 *                             "ㄱ" whose done carries a stale serial, a commit that is not
 *                             UTF-8 followed by commit "글" ("composed"); after the client
 *                             disables, a commit "late" and a preedit, then the alive check.
 *                             Every client commit prints "commit N enabled E surrounding
 *                             "TEXT" CURSOR ANCHOR".
 *   no-frames                 frame callbacks are never answered (a compositor that does
 *                             not show the window); "no frames" when mapped
 *   wheel-v120 X1 X2          (wl_seat offered at version 8, with a pointer) a
 *                             high-resolution wheel: the pointer enters at (X1, 75) and
 *                             sends eight frames of axis_value120 15 (1/8 detent) with
 *                             axis 1.25, "eighths"; after the client's next commit it moves
 *                             to (X2, 75) and sends fifteen more, then three of -40 (a
 *                             reversal), "reversed"; then the alive check.
 *
 * After the scenario it sends a configure; the client's next commit proves it is still
 * processing events and prints "alive W H MAXPIXELS" (the last buffer's size, the largest
 * buffer area seen). hangup and unknown-object print "hangup" / "sent" instead. It exits
 * when the client disconnects, and after 60 s whatever happens.
 *
 * Built by the tests with gcc against wayland-server and xkbcommon, with server glue made
 * by wayland-scanner from protocols/.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server.h>
#include <xkbcommon/xkbcommon.h>

#include "xdg-shell-server-protocol.h"
#include "viewporter-server-protocol.h"
#include "fractional-scale-v1-server-protocol.h"
#include "text-input-unstable-v3-server-protocol.h"

struct state {
	struct wl_display *display;
	struct wl_event_loop *loop;
	const char *scenario;
	char **arguments;
	int argument_count;

	struct wl_client *client;
	struct wl_resource *surface;
	struct wl_resource *xdg_surface;
	struct wl_resource *toplevel;
	struct wl_resource *keyboard;
	struct wl_resource *pointer;
	int wheel_step; /* wheel-v120: 1 after the first burst, 2 after the second */
	/* text-input-v3: the client's text input, its committed and pending state, the
	 * commits counted, and the scenario's step. */
	struct wl_resource *text_input;
	int text_input_enabled, text_input_pending_enabled;
	char *surrounding, *pending_surrounding;
	uint32_t surrounding_cursor, surrounding_anchor, pending_cursor, pending_anchor;
	uint32_t text_input_commits;
	int text_input_step;
	struct wl_resource *output;
	struct wl_resource *fractional;
	struct wl_list frame_callbacks; /* wl_resource links, fired by frame_timer */
	struct wl_event_source *frame_timer;
	struct wl_resource *pending_buffer;
	struct wl_global *seat_global;
	struct wl_global *output_global;

	uint32_t serial;
	int configured;
	int mapped;
	int played;
	uint32_t alive_serial; /* the configure whose ack + commit proves liveness */
	int awaiting_alive;
	int32_t configure_width, configure_height;
	int32_t output_scale;
	long max_pixels;
	int32_t buffer_width, buffer_height; /* of the last buffer attached */
};

static struct state state;

static const char *
argument(int index, const char *fallback)
{
	return index < state.argument_count ? state.arguments[index] : fallback;
}

static void
say(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	vprintf(format, args);
	va_end(args);
	putchar('\n');
	fflush(stdout);
}

static uint32_t
next_serial(void)
{
	return ++state.serial;
}

static void
destroy_resource(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

/* MARK: - Keyboard */

/* A memfd holding `size` bytes: the "us" keymap (NUL-terminated), or `filler` bytes. */
static int
keymap_file(size_t *size, char filler, size_t filler_size)
{
	int fd = memfd_create("hostile-keymap", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (filler_size > 0) {
		char chunk[65536];
		memset(chunk, filler, sizeof chunk);
		for (size_t written = 0; written < filler_size; written += sizeof chunk)
			if (write(fd, chunk, sizeof chunk) != (ssize_t)sizeof chunk)
				return -1;
		*size = filler_size;
		return fd;
	}
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	struct xkb_rule_names names = { .layout = "us" };
	struct xkb_keymap *keymap = xkb_keymap_new_from_names(context, &names, 0);
	char *text = keymap ? xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) : NULL;
	if (!text)
		return -1;
	*size = strlen(text) + 1;
	if (write(fd, text, *size) != (ssize_t)*size)
		return -1;
	free(text);
	xkb_keymap_unref(keymap);
	xkb_context_unref(context);
	return fd;
}

static void
send_keymap(size_t filler_size)
{
	size_t size = 0;
	int fd = keymap_file(&size, ' ', filler_size);
	if (fd < 0) {
		say("error keymap");
		exit(3);
	}
	wl_keyboard_send_keymap(state.keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, (uint32_t)size);
	close(fd);
}

static void
send_enter(const uint32_t *keys, size_t count)
{
	struct wl_array array;
	wl_array_init(&array);
	for (size_t i = 0; i < count; i++) {
		uint32_t *slot = wl_array_add(&array, sizeof *slot);
		*slot = keys[i];
	}
	wl_keyboard_send_enter(state.keyboard, next_serial(), state.surface, &array);
	wl_array_release(&array);
}

static const struct wl_keyboard_interface keyboard_implementation = {
	.release = destroy_resource,
};

static void
keyboard_destroyed(struct wl_resource *resource)
{
	if (state.keyboard == resource)
		state.keyboard = NULL;
}

/* MARK: - Seat */

static void
pointer_set_cursor(struct wl_client *client, struct wl_resource *resource, uint32_t serial,
		   struct wl_resource *surface, int32_t x, int32_t y)
{
	(void)client; (void)resource; (void)serial; (void)surface; (void)x; (void)y;
}

static const struct wl_pointer_interface pointer_implementation = {
	.set_cursor = pointer_set_cursor,
	.release = destroy_resource,
};

static void
pointer_destroyed(struct wl_resource *resource)
{
	if (state.pointer == resource)
		state.pointer = NULL;
}

static void
seat_get_pointer(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct wl_resource *pointer =
		wl_resource_create(client, &wl_pointer_interface, wl_resource_get_version(resource), id);
	wl_resource_set_implementation(pointer, &pointer_implementation, NULL, pointer_destroyed);
	state.pointer = pointer;
}

static void
seat_get_keyboard(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct wl_resource *keyboard =
		wl_resource_create(client, &wl_keyboard_interface, wl_resource_get_version(resource), id);
	wl_resource_set_implementation(keyboard, &keyboard_implementation, NULL, keyboard_destroyed);
	state.keyboard = keyboard;
	if (wl_resource_get_version(keyboard) >= 4)
		wl_keyboard_send_repeat_info(keyboard, 25, 600);
}

static void
seat_get_touch(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	(void)client; (void)resource; (void)id;
}

static const struct wl_seat_interface seat_implementation = {
	.get_pointer = seat_get_pointer,
	.get_keyboard = seat_get_keyboard,
	.get_touch = seat_get_touch,
	.release = destroy_resource,
};

static void
bind_seat(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *seat = wl_resource_create(client, &wl_seat_interface, version, id);
	wl_resource_set_implementation(seat, &seat_implementation, NULL, NULL);
	uint32_t capabilities = WL_SEAT_CAPABILITY_KEYBOARD;
	if (strcmp(state.scenario, "wheel-v120") == 0)
		capabilities |= WL_SEAT_CAPABILITY_POINTER;
	wl_seat_send_capabilities(seat, capabilities);
	if (version >= 2)
		wl_seat_send_name(seat, "hostile");
}

/* MARK: - Data device (the clipboard; scenario data-device) */

static void
data_source_offer(struct wl_client *client, struct wl_resource *resource, const char *type)
{
	(void)client; (void)resource; (void)type;
}

static void
data_source_set_actions(struct wl_client *client, struct wl_resource *resource, uint32_t actions)
{
	(void)client; (void)resource; (void)actions;
}

static const struct wl_data_source_interface data_source_implementation = {
	.offer = data_source_offer,
	.destroy = destroy_resource,
	.set_actions = data_source_set_actions,
};

static void
data_device_start_drag(struct wl_client *client, struct wl_resource *resource, struct wl_resource *source,
		       struct wl_resource *origin, struct wl_resource *icon, uint32_t serial)
{
	(void)client; (void)resource; (void)source; (void)origin; (void)icon; (void)serial;
}

static void
data_device_set_selection(struct wl_client *client, struct wl_resource *resource, struct wl_resource *source,
			  uint32_t serial)
{
	(void)client; (void)resource; (void)source; (void)serial;
}

static void
data_device_release(struct wl_client *client, struct wl_resource *resource)
{
	say("data device released");
	destroy_resource(client, resource);
}

static const struct wl_data_device_interface data_device_implementation = {
	.start_drag = data_device_start_drag,
	.set_selection = data_device_set_selection,
	.release = data_device_release,
};

static void
manager_create_data_source(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct wl_resource *source =
		wl_resource_create(client, &wl_data_source_interface, wl_resource_get_version(resource), id);
	wl_resource_set_implementation(source, &data_source_implementation, NULL, NULL);
}

static void
manager_get_data_device(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			struct wl_resource *seat)
{
	(void)seat;
	struct wl_resource *device =
		wl_resource_create(client, &wl_data_device_interface, wl_resource_get_version(resource), id);
	wl_resource_set_implementation(device, &data_device_implementation, NULL, NULL);
}

static const struct wl_data_device_manager_interface data_device_manager_implementation = {
	.create_data_source = manager_create_data_source,
	.get_data_device = manager_get_data_device,
};

static void
bind_data_device_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *manager = wl_resource_create(client, &wl_data_device_manager_interface, version, id);
	wl_resource_set_implementation(manager, &data_device_manager_implementation, NULL, NULL);
}

/* MARK: - Output */

static void
send_output_scale(int32_t scale)
{
	if (!state.output)
		return;
	if (wl_resource_get_version(state.output) >= 2) {
		wl_output_send_scale(state.output, scale);
		wl_output_send_done(state.output);
	}
}

static const struct wl_output_interface output_implementation = {
	.release = destroy_resource,
};

static void
output_destroyed(struct wl_resource *resource)
{
	if (state.output == resource)
		state.output = NULL;
}

static void
bind_output(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *output = wl_resource_create(client, &wl_output_interface, version, id);
	wl_resource_set_implementation(output, &output_implementation, NULL, output_destroyed);
	state.output = output;
	wl_output_send_geometry(output, 0, 0, 600, 340, WL_OUTPUT_SUBPIXEL_UNKNOWN, "Damask", "Hostile",
				WL_OUTPUT_TRANSFORM_NORMAL);
	wl_output_send_mode(output, WL_OUTPUT_MODE_CURRENT, 3840, 2160, 60000);
	send_output_scale(state.output_scale);
	if (version < 2)
		return;
}

/* MARK: - Surfaces */

static void
fire_frame_callbacks(void)
{
	struct wl_resource *callback, *next;
	wl_resource_for_each_safe(callback, next, &state.frame_callbacks) {
		wl_callback_send_done(callback, (uint32_t)(clock() / 1000));
		wl_resource_destroy(callback);
	}
}

static int
frame_timer_fired(void *data)
{
	(void)data;
	fire_frame_callbacks();
	return 0;
}

static void
send_configure(int32_t width, int32_t height)
{
	struct wl_array states;
	wl_array_init(&states);
	xdg_toplevel_send_configure(state.toplevel, width, height, &states);
	wl_array_release(&states);
	xdg_surface_send_configure(state.xdg_surface, next_serial());
}

static void play_scenario(void);
static void send_wheel_frame(int32_t value120);
static void send_wheel_eighths(void);

static void
request_alive(void)
{
	state.awaiting_alive = 1;
	send_configure(0, 0);
	state.alive_serial = state.serial;
}

static void
surface_attach(struct wl_client *client, struct wl_resource *resource, struct wl_resource *buffer,
	       int32_t x, int32_t y)
{
	(void)client; (void)resource; (void)x; (void)y;
	state.pending_buffer = buffer;
}

static void
surface_damage(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y,
	       int32_t width, int32_t height)
{
	(void)client; (void)resource; (void)x; (void)y; (void)width; (void)height;
}

/* A frame callback leaves state.frame_callbacks when it is destroyed, whoever destroys it. */
static void
unlink_resource(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
}

static void
surface_frame(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	(void)resource;
	struct wl_resource *callback = wl_resource_create(client, &wl_callback_interface, 1, id);
	wl_resource_set_implementation(callback, NULL, NULL, unlink_resource);
	wl_list_insert(state.frame_callbacks.prev, wl_resource_get_link(callback));
}

static void
surface_set_region(struct wl_client *client, struct wl_resource *resource, struct wl_resource *region)
{
	(void)client; (void)resource; (void)region;
}

static void
surface_commit(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	int32_t width = 0, height = 0;
	if (resource != state.surface) {
		/* Another surface (the pointer's cursor): its buffer is released, nothing more. */
		if (state.pending_buffer)
			wl_buffer_send_release(state.pending_buffer);
		state.pending_buffer = NULL;
		return;
	}
	if (state.pending_buffer) {
		struct wl_shm_buffer *shm = wl_shm_buffer_get(state.pending_buffer);
		if (shm) {
			width = wl_shm_buffer_get_width(shm);
			height = wl_shm_buffer_get_height(shm);
			if (state.mapped && (width != state.buffer_width || height != state.buffer_height))
				say("buffer %d %d", width, height);
			state.buffer_width = width;
			state.buffer_height = height;
			long pixels = (long)width * height;
			if (pixels > state.max_pixels)
				state.max_pixels = pixels;
		}
		wl_buffer_send_release(state.pending_buffer);
		state.pending_buffer = NULL;
		if (!state.mapped) {
			state.mapped = 1;
			say("mapped %d %d", width, height);
		}
	}
	if (!wl_list_empty(&state.frame_callbacks) && strcmp(state.scenario, "no-frames") != 0)
		wl_event_source_timer_update(state.frame_timer, 16);
	if (!state.configured && state.toplevel) {
		state.configured = 1;
		send_configure(state.configure_width, state.configure_height);
		return;
	}
	if (state.mapped && !state.played) {
		state.played = 1;
		play_scenario();
		return;
	}
	if (state.wheel_step == 1) {
		state.wheel_step = 2;
		wl_pointer_send_motion(state.pointer, 3, wl_fixed_from_int((int)strtol(argument(1, "150"), NULL, 10)),
				       wl_fixed_from_int(75));
		wl_pointer_send_frame(state.pointer);
		send_wheel_eighths();
		for (int i = 0; i < 7; i++)
			send_wheel_frame(15);
		for (int i = 0; i < 3; i++)
			send_wheel_frame(-40);
		say("reversed");
		request_alive();
		return;
	}
	if (state.awaiting_alive == 2) {
		state.awaiting_alive = 0;
		say("alive %d %d %ld", state.buffer_width, state.buffer_height, state.max_pixels);
	}
}

static void
surface_set_buffer_transform(struct wl_client *client, struct wl_resource *resource, int32_t transform)
{
	(void)client; (void)resource; (void)transform;
}

static void
surface_set_buffer_scale(struct wl_client *client, struct wl_resource *resource, int32_t scale)
{
	(void)client; (void)resource; (void)scale;
}

static void
surface_damage_buffer(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y,
		      int32_t width, int32_t height)
{
	(void)client; (void)resource; (void)x; (void)y; (void)width; (void)height;
}

static void
surface_offset(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y)
{
	(void)client; (void)resource; (void)x; (void)y;
}

static const struct wl_surface_interface surface_implementation = {
	.destroy = destroy_resource,
	.attach = surface_attach,
	.damage = surface_damage,
	.frame = surface_frame,
	.set_opaque_region = surface_set_region,
	.set_input_region = surface_set_region,
	.commit = surface_commit,
	.set_buffer_transform = surface_set_buffer_transform,
	.set_buffer_scale = surface_set_buffer_scale,
	.damage_buffer = surface_damage_buffer,
	.offset = surface_offset,
};

static void
region_add(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y, int32_t width,
	   int32_t height)
{
	(void)client; (void)resource; (void)x; (void)y; (void)width; (void)height;
}

static const struct wl_region_interface region_implementation = {
	.destroy = destroy_resource,
	.add = region_add,
	.subtract = region_add,
};

static void
compositor_create_surface(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct wl_resource *surface =
		wl_resource_create(client, &wl_surface_interface, wl_resource_get_version(resource), id);
	wl_resource_set_implementation(surface, &surface_implementation, NULL, NULL);
	if (!state.surface)
		state.surface = surface;
}

static void
compositor_create_region(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	(void)resource;
	struct wl_resource *region = wl_resource_create(client, &wl_region_interface, 1, id);
	wl_resource_set_implementation(region, &region_implementation, NULL, NULL);
}

static const struct wl_compositor_interface compositor_implementation = {
	.create_surface = compositor_create_surface,
	.create_region = compositor_create_region,
};

static void
bind_compositor(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *resource = wl_resource_create(client, &wl_compositor_interface, version, id);
	wl_resource_set_implementation(resource, &compositor_implementation, NULL, NULL);
}

/* MARK: - xdg-shell */

static void
toplevel_set_parent(struct wl_client *c, struct wl_resource *r, struct wl_resource *p)
{
	(void)c; (void)r; (void)p;
}
static void
toplevel_set_string(struct wl_client *c, struct wl_resource *r, const char *s)
{
	(void)c; (void)r; (void)s;
}
static void
toplevel_show_window_menu(struct wl_client *c, struct wl_resource *r, struct wl_resource *s, uint32_t serial,
			  int32_t x, int32_t y)
{
	(void)c; (void)r; (void)s; (void)serial; (void)x; (void)y;
}
static void
toplevel_move(struct wl_client *c, struct wl_resource *r, struct wl_resource *s, uint32_t serial)
{
	(void)c; (void)r; (void)s; (void)serial;
}
static void
toplevel_resize(struct wl_client *c, struct wl_resource *r, struct wl_resource *s, uint32_t serial,
		uint32_t edges)
{
	(void)c; (void)r; (void)s; (void)serial; (void)edges;
}
static void
toplevel_set_size(struct wl_client *c, struct wl_resource *r, int32_t w, int32_t h)
{
	(void)c; (void)r; (void)w; (void)h;
}
static void
toplevel_no_argument(struct wl_client *c, struct wl_resource *r)
{
	(void)c; (void)r;
}
static void
toplevel_set_fullscreen(struct wl_client *c, struct wl_resource *r, struct wl_resource *o)
{
	(void)c; (void)r; (void)o;
}

static const struct xdg_toplevel_interface toplevel_implementation = {
	.destroy = destroy_resource,
	.set_parent = toplevel_set_parent,
	.set_title = toplevel_set_string,
	.set_app_id = toplevel_set_string,
	.show_window_menu = toplevel_show_window_menu,
	.move = toplevel_move,
	.resize = toplevel_resize,
	.set_max_size = toplevel_set_size,
	.set_min_size = toplevel_set_size,
	.set_maximized = toplevel_no_argument,
	.unset_maximized = toplevel_no_argument,
	.set_fullscreen = toplevel_set_fullscreen,
	.unset_fullscreen = toplevel_no_argument,
	.set_minimized = toplevel_no_argument,
};

static void
xdg_surface_get_toplevel(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct wl_resource *toplevel =
		wl_resource_create(client, &xdg_toplevel_interface, wl_resource_get_version(resource), id);
	wl_resource_set_implementation(toplevel, &toplevel_implementation, NULL, NULL);
	state.toplevel = toplevel;
}

static void
xdg_surface_get_popup(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *p,
		      struct wl_resource *pos)
{
	(void)c; (void)r; (void)id; (void)p; (void)pos;
}

static void
xdg_surface_set_window_geometry(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w,
				int32_t h)
{
	(void)c; (void)r; (void)x; (void)y; (void)w; (void)h;
}

static void
xdg_surface_ack_configure(struct wl_client *client, struct wl_resource *resource, uint32_t serial)
{
	(void)client; (void)resource;
	if (state.awaiting_alive == 1 && serial == state.alive_serial)
		state.awaiting_alive = 2;
}

static const struct xdg_surface_interface xdg_surface_implementation = {
	.destroy = destroy_resource,
	.get_toplevel = xdg_surface_get_toplevel,
	.get_popup = xdg_surface_get_popup,
	.set_window_geometry = xdg_surface_set_window_geometry,
	.ack_configure = xdg_surface_ack_configure,
};

static void
wm_base_create_positioner(struct wl_client *c, struct wl_resource *r, uint32_t id)
{
	(void)c; (void)r; (void)id;
}

static void
wm_base_get_xdg_surface(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			struct wl_resource *surface)
{
	(void)surface;
	struct wl_resource *xdg_surface =
		wl_resource_create(client, &xdg_surface_interface, wl_resource_get_version(resource), id);
	wl_resource_set_implementation(xdg_surface, &xdg_surface_implementation, NULL, NULL);
	state.xdg_surface = xdg_surface;
}

static void
wm_base_pong(struct wl_client *c, struct wl_resource *r, uint32_t serial)
{
	(void)c; (void)r; (void)serial;
}

static const struct xdg_wm_base_interface wm_base_implementation = {
	.destroy = destroy_resource,
	.create_positioner = wm_base_create_positioner,
	.get_xdg_surface = wm_base_get_xdg_surface,
	.pong = wm_base_pong,
};

static void
bind_wm_base(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *resource = wl_resource_create(client, &xdg_wm_base_interface, version, id);
	wl_resource_set_implementation(resource, &wm_base_implementation, NULL, NULL);
}

/* MARK: - Viewporter and fractional scale (preferred-scale only) */

static void
viewport_set_source(struct wl_client *c, struct wl_resource *r, wl_fixed_t x, wl_fixed_t y, wl_fixed_t w,
		    wl_fixed_t h)
{
	(void)c; (void)r; (void)x; (void)y; (void)w; (void)h;
}

static void
viewport_set_destination(struct wl_client *c, struct wl_resource *r, int32_t w, int32_t h)
{
	(void)c; (void)r; (void)w; (void)h;
}

static const struct wp_viewport_interface viewport_implementation = {
	.destroy = destroy_resource,
	.set_source = viewport_set_source,
	.set_destination = viewport_set_destination,
};

static void
viewporter_get_viewport(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			struct wl_resource *surface)
{
	(void)resource; (void)surface;
	struct wl_resource *viewport = wl_resource_create(client, &wp_viewport_interface, 1, id);
	wl_resource_set_implementation(viewport, &viewport_implementation, NULL, NULL);
}

static const struct wp_viewporter_interface viewporter_implementation = {
	.destroy = destroy_resource,
	.get_viewport = viewporter_get_viewport,
};

static void
bind_viewporter(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *resource = wl_resource_create(client, &wp_viewporter_interface, version, id);
	wl_resource_set_implementation(resource, &viewporter_implementation, NULL, NULL);
}

static const struct wp_fractional_scale_v1_interface fractional_implementation = {
	.destroy = destroy_resource,
};

static void
fractional_manager_get(struct wl_client *client, struct wl_resource *resource, uint32_t id,
		       struct wl_resource *surface)
{
	(void)resource; (void)surface;
	struct wl_resource *fractional = wl_resource_create(client, &wp_fractional_scale_v1_interface, 1, id);
	wl_resource_set_implementation(fractional, &fractional_implementation, NULL, NULL);
	state.fractional = fractional;
	wp_fractional_scale_v1_send_preferred_scale(fractional, 120);
}

static const struct wp_fractional_scale_manager_v1_interface fractional_manager_implementation = {
	.destroy = destroy_resource,
	.get_fractional_scale = fractional_manager_get,
};

static void
bind_fractional_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *resource =
		wl_resource_create(client, &wp_fractional_scale_manager_v1_interface, version, id);
	wl_resource_set_implementation(resource, &fractional_manager_implementation, NULL, NULL);
}

/* MARK: - Text input v3 (scenario text-input-v3) */

static void
text_input_enable(struct wl_client *client, struct wl_resource *resource)
{
	(void)client; (void)resource;
	state.text_input_pending_enabled = 1;
}

static void
text_input_disable(struct wl_client *client, struct wl_resource *resource)
{
	(void)client; (void)resource;
	state.text_input_pending_enabled = 0;
}

static void
text_input_set_surrounding_text(struct wl_client *client, struct wl_resource *resource, const char *text,
				int32_t cursor, int32_t anchor)
{
	(void)client; (void)resource;
	free(state.pending_surrounding);
	state.pending_surrounding = strdup(text);
	state.pending_cursor = (uint32_t)cursor;
	state.pending_anchor = (uint32_t)anchor;
}

static void
text_input_ignore_uint(struct wl_client *client, struct wl_resource *resource, uint32_t value)
{
	(void)client; (void)resource; (void)value;
}

static void
text_input_set_content_type(struct wl_client *client, struct wl_resource *resource, uint32_t hint, uint32_t purpose)
{
	(void)client; (void)resource; (void)hint; (void)purpose;
}

static void
text_input_set_cursor_rectangle(struct wl_client *client, struct wl_resource *resource, int32_t x, int32_t y,
				int32_t width, int32_t height)
{
	(void)client; (void)resource; (void)x; (void)y; (void)width; (void)height;
}

static void request_alive(void);

/* Plays the input method's next step after the client's commit. */
static void
text_input_play(void)
{
	struct wl_resource *input = state.text_input;
	uint32_t serial = state.text_input_commits;
	if (!state.text_input_enabled) {
		if (state.text_input_step == 4) {
			/* Events after disable: the client must drop them. */
			zwp_text_input_v3_send_commit_string(input, "late");
			zwp_text_input_v3_send_done(input, serial);
			zwp_text_input_v3_send_preedit_string(input, "x", 1, 1);
			zwp_text_input_v3_send_done(input, serial);
			state.text_input_step = 5;
			say("sent after disable");
			request_alive();
		}
		return;
	}
	switch (state.text_input_step) {
	case 0:
		zwp_text_input_v3_send_preedit_string(input, "\xed\x95\x98", 3, 3); /* 하 */
		zwp_text_input_v3_send_done(input, serial);
		break;
	case 1:
		zwp_text_input_v3_send_commit_string(input, "\xed\x95\x9c"); /* 한 */
		zwp_text_input_v3_send_done(input, serial);
		break;
	case 2:
		/* A done whose serial is behind the client's commits: still applied. */
		zwp_text_input_v3_send_preedit_string(input, "\xe3\x84\xb1", 3, 3); /* ㄱ */
		zwp_text_input_v3_send_done(input, serial - 1);
		break;
	case 3:
		/* Not UTF-8: the whole update is rejected; the next one applies. */
		zwp_text_input_v3_send_commit_string(input, "\xff\xfe");
		zwp_text_input_v3_send_done(input, serial);
		zwp_text_input_v3_send_commit_string(input, "\xea\xb8\x80"); /* 글 */
		zwp_text_input_v3_send_done(input, serial);
		break;
	case 4:
		say("composed");
		return;
	default:
		return;
	}
	state.text_input_step++;
}

static void
text_input_commit(struct wl_client *client, struct wl_resource *resource)
{
	(void)client; (void)resource;
	state.text_input_commits++;
	state.text_input_enabled = state.text_input_pending_enabled;
	if (state.pending_surrounding) {
		free(state.surrounding);
		state.surrounding = state.pending_surrounding;
		state.pending_surrounding = NULL;
		state.surrounding_cursor = state.pending_cursor;
		state.surrounding_anchor = state.pending_anchor;
	}
	say("commit %u enabled %d surrounding \"%s\" %u %u", state.text_input_commits, state.text_input_enabled,
	    state.surrounding ? state.surrounding : "", state.surrounding_cursor, state.surrounding_anchor);
	text_input_play();
}

static const struct zwp_text_input_v3_interface text_input_implementation = {
	.destroy = destroy_resource,
	.enable = text_input_enable,
	.disable = text_input_disable,
	.set_surrounding_text = text_input_set_surrounding_text,
	.set_text_change_cause = text_input_ignore_uint,
	.set_content_type = text_input_set_content_type,
	.set_cursor_rectangle = text_input_set_cursor_rectangle,
	.commit = text_input_commit,
};

static void
text_input_destroyed(struct wl_resource *resource)
{
	if (state.text_input == resource)
		state.text_input = NULL;
}

static void
text_input_manager_get_text_input(struct wl_client *client, struct wl_resource *resource, uint32_t id,
				  struct wl_resource *seat)
{
	(void)seat;
	struct wl_resource *input =
		wl_resource_create(client, &zwp_text_input_v3_interface, wl_resource_get_version(resource), id);
	wl_resource_set_implementation(input, &text_input_implementation, NULL, text_input_destroyed);
	state.text_input = input;
}

static const struct zwp_text_input_manager_v3_interface text_input_manager_implementation = {
	.destroy = destroy_resource,
	.get_text_input = text_input_manager_get_text_input,
};

static void
bind_text_input_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *manager = wl_resource_create(client, &zwp_text_input_manager_v3_interface, version, id);
	wl_resource_set_implementation(manager, &text_input_manager_implementation, NULL, NULL);
}

/* MARK: - Scenarios */

static int
is(const char *name)
{
	return strcmp(state.scenario, name) == 0;
}

/* One wheel frame as a version 8 compositor sends it: source, value120, the distance (10
 * points a detent), frame. */
static void
send_wheel_frame(int32_t value120)
{
	wl_pointer_send_axis_source(state.pointer, WL_POINTER_AXIS_SOURCE_WHEEL);
	wl_pointer_send_axis_value120(state.pointer, WL_POINTER_AXIS_VERTICAL_SCROLL, value120);
	wl_pointer_send_axis(state.pointer, 2, WL_POINTER_AXIS_VERTICAL_SCROLL, wl_fixed_from_double(value120 / 12.0));
	wl_pointer_send_frame(state.pointer);
}

static void
send_wheel_eighths(void)
{
	for (int i = 0; i < 8; i++)
		send_wheel_frame(15);
}

static void
play_scenario(void)
{
	if (is("key-code")) {
		static const uint32_t keys[] = { 0xFFFFFFF8u, 0xFFFFFFFFu, 0xFFFFFFF7u };
		send_keymap(0);
		send_enter(NULL, 0);
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
			wl_keyboard_send_key(state.keyboard, next_serial(), 1, keys[i], WL_KEYBOARD_KEY_STATE_PRESSED);
			wl_keyboard_send_key(state.keyboard, next_serial(), 2, keys[i], WL_KEYBOARD_KEY_STATE_RELEASED);
		}
		request_alive();
	} else if (is("enter-keys")) {
		static const uint32_t keys[] = { 0xFFFFFFFFu, 0xFFFFFFF8u };
		send_enter(keys, 2);
		request_alive();
	} else if (is("scale-raise")) {
		send_output_scale((int32_t)strtol(argument(0, "8"), NULL, 10));
		request_alive();
	} else if (is("preferred-scale")) {
		if (!state.fractional) {
			say("error no fractional scale object");
			exit(3);
		}
		wp_fractional_scale_v1_send_preferred_scale(state.fractional,
							    (uint32_t)strtoul(argument(0, "120"), NULL, 10));
		request_alive();
	} else if (is("scale-storm")) {
		long count = strtol(argument(0, "2000"), NULL, 10);
		int32_t final = (int32_t)strtol(argument(1, "1000"), NULL, 10);
		for (long i = 0; i < count - 1; i++) {
			send_output_scale((int32_t)(1 + i % 7));
			if (i % 64 == 0)
				wl_client_flush(state.client);
		}
		send_output_scale(final);
		request_alive();
	} else if (is("repeat-rate")) {
		static const uint32_t key_a = 30;
		send_keymap(0);
		wl_keyboard_send_repeat_info(state.keyboard, INT32_MAX, 0);
		send_enter(NULL, 0);
		wl_keyboard_send_key(state.keyboard, next_serial(), 1, key_a, WL_KEYBOARD_KEY_STATE_PRESSED);
		request_alive();
	} else if (is("huge-keymap")) {
		size_t mebibytes = strtoul(argument(0, "256"), NULL, 10);
		send_keymap(mebibytes << 20);
		request_alive();
	} else if (is("hangup")) {
		long count = strtol(argument(0, "1"), NULL, 10);
		for (long i = 0; i < count; i++)
			wl_output_send_geometry(state.output, 0, 0, 600, 340, WL_OUTPUT_SUBPIXEL_UNKNOWN,
						"Damask", "Hostile", WL_OUTPUT_TRANSFORM_NORMAL);
		send_configure(0, 0);
		say("hangup");
		/* Flushes what is queued, then closes the socket: the client sees data and a
		 * hang-up at once. */
		wl_client_destroy(state.client);
	} else if (is("unknown-object")) {
		/* A server-allocated id the client never heard of. */
		struct wl_resource *phantom = wl_resource_create(state.client, &wl_surface_interface, 1, 0);
		struct wl_array keys;
		wl_array_init(&keys);
		wl_keyboard_send_enter(state.keyboard, next_serial(), phantom, &keys);
		wl_array_release(&keys);
		say("sent");
	} else if (is("scale-at-bind")) {
		request_alive();
	} else if (is("output-unplug")) {
		if (!state.output) {
			say("error the client bound no wl_output");
			exit(3);
		}
		wl_surface_send_enter(state.surface, state.output);
		/* Sends global_remove; the client's wl_output resource lives on until it
		 * releases it. */
		wl_global_destroy(state.output_global);
		state.output_global = NULL;
		say("unplugged");
		request_alive();
	} else if (is("text-input-v3")) {
		if (!state.text_input) {
			say("error no text input");
			exit(3);
		}
		send_keymap(0);
		send_enter(NULL, 0);
		zwp_text_input_v3_send_enter(state.text_input, state.surface);
		say("focused");
	} else if (is("wheel-v120")) {
		if (!state.pointer || wl_resource_get_version(state.pointer) < WL_POINTER_AXIS_VALUE120_SINCE_VERSION) {
			say("error no wl_pointer at version 8");
			exit(3);
		}
		wl_pointer_send_enter(state.pointer, next_serial(), state.surface,
				      wl_fixed_from_int((int)strtol(argument(0, "50"), NULL, 10)), wl_fixed_from_int(75));
		wl_pointer_send_frame(state.pointer);
		send_wheel_eighths();
		state.wheel_step = 1;
		say("eighths");
	} else if (is("no-frames")) {
		say("no frames");
	} else if (is("data-device")) {
		/* The client releases its seat's devices, the data device among them. */
		wl_global_destroy(state.seat_global);
		state.seat_global = NULL;
		request_alive();
	} else {
		say("error unknown scenario %s", state.scenario);
		exit(3);
	}
}

/* MARK: - Main */

static void
client_destroyed(struct wl_listener *listener, void *data)
{
	(void)listener; (void)data;
	state.client = NULL;
	say("client gone");
	wl_display_terminate(state.display);
}

static struct wl_listener client_destroy_listener = { .notify = client_destroyed };

static void
client_created(struct wl_listener *listener, void *data)
{
	(void)listener;
	if (state.client)
		return;
	state.client = data;
	wl_client_add_destroy_listener(state.client, &client_destroy_listener);
}

static struct wl_listener client_created_listener = { .notify = client_created };

int
main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: hostile-compositor SOCKET-NAME SCENARIO [ARGUMENT...]\n");
		return 2;
	}
	alarm(60);
	state.scenario = argv[2];
	state.arguments = argv + 3;
	state.argument_count = argc - 3;
	state.output_scale = 1;
	wl_list_init(&state.frame_callbacks);
	if (is("scale-raise") && state.argument_count > 1)
		sscanf(argument(1, "0x0"), "%dx%d", &state.configure_width, &state.configure_height);
	if (is("scale-at-bind"))
		state.output_scale = (int32_t)strtol(argument(0, "1000"), NULL, 10);
	if (is("output-unplug"))
		state.output_scale = (int32_t)strtol(argument(0, "2"), NULL, 10);

	state.display = wl_display_create();
	state.loop = wl_display_get_event_loop(state.display);
	if (wl_display_add_socket(state.display, argv[1]) != 0) {
		perror("hostile-compositor: wl_display_add_socket");
		return 2;
	}
	wl_display_add_client_created_listener(state.display, &client_created_listener);
	state.frame_timer = wl_event_loop_add_timer(state.loop, frame_timer_fired, NULL);
	wl_display_init_shm(state.display);
	wl_global_create(state.display, &wl_compositor_interface, 4, NULL, bind_compositor);
	wl_global_create(state.display, &xdg_wm_base_interface, 2, NULL, bind_wm_base);
	state.seat_global = wl_global_create(state.display, &wl_seat_interface, is("wheel-v120") ? 8 : 7,
					     NULL, bind_seat);
	if (is("data-device"))
		wl_global_create(state.display, &wl_data_device_manager_interface,
				 (int)strtol(argument(0, "3"), NULL, 10), NULL, bind_data_device_manager);
	state.output_global = wl_global_create(state.display, &wl_output_interface, 3, NULL, bind_output);
	if (is("text-input-v3"))
		wl_global_create(state.display, &zwp_text_input_manager_v3_interface, 1, NULL, bind_text_input_manager);
	if (is("preferred-scale")) {
		wl_global_create(state.display, &wp_viewporter_interface, 1, NULL, bind_viewporter);
		wl_global_create(state.display, &wp_fractional_scale_manager_v1_interface, 1, NULL,
				 bind_fractional_manager);
	}
	say("listening");
	wl_display_run(state.display);
	wl_display_destroy(state.display);
	return 0;
}
