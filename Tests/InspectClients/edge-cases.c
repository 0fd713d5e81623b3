/*
 * Correct wl_shm clients in situations the other test clients do not reach, for the
 * damask-inspect tests.
 *
 *   edge-cases mixed-scale [FRAMES]
 *     Buffer scale 2 (a 200x150 buffer, a 100x75 surface). Each frame changes two
 *     rectangles, declares one with wl_surface.damage (surface coordinates, covering it after
 *     scaling) and the other with wl_surface.damage_buffer, in the same commit.
 *   edge-cases grow-pool [FRAMES]
 *     Starts with a pool that holds one 200x150 buffer; each frame grows the pool file and the
 *     pool (wl_shm_pool.resize), makes a new buffer at the new end, draws the last content
 *     plus a 10x10 change into it, commits it with exact damage, and destroys the buffer it
 *     replaced once the compositor released it.
 *   edge-cases exit-unread
 *     Commits two frames, the second with a frame callback; right after that callback (a
 *     repaint just happened) commits a third asking for a frame callback, and after a
 *     roundtrip stops the inspector (its parent) with SIGSTOP, so that the compositor's answer
 *     at its next repaint waits in the inspector's socket; commits a fourth frame (a new
 *     buffer, exact damage) and exits at once; a helper process resumes the inspector
 *     (SIGCONT) 100 ms later. The inspector then finds the compositor's events for a client
 *     that has gone, and the client's last commit still unread.
 *   edge-cases destroy-pending
 *     Commits one frame, then attaches a second buffer, destroys it before the commit and
 *     commits (compositors then commit no buffer: the surface is unmapped); maps the surface
 *     again (an initial commit, a roundtrip) with a new buffer holding the first frame changed by
 *     a 30x30 square, of which it declares only a 5x5 corner: a new mapping, which
 *     compositors show whole.
 *   edge-cases exit-mid-commit
 *     Commits one frame, then attaches and damages again, writes the first half of a
 *     wl_surface.commit straight onto the socket and exits without a word.
 *
 * Prints "frame N" for each frame committed after the first, then "done" (not in
 * exit-mid-commit). Exits 0, or 2 when it cannot connect or map.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include "inspect-client.h"

enum { WIDTH = 200, HEIGHT = 150, STRIDE = WIDTH * 4, SIZE = STRIDE * HEIGHT, MAX_FRAMES = 64 };

static bool busy[MAX_FRAMES + 1];

static void buffer_release(void *data, struct wl_buffer *wl_buffer)
{
	busy[(intptr_t)data] = false;
}

static const struct wl_buffer_listener buffer_listener = { buffer_release };

static void frame_done(void *data, struct wl_callback *callback, uint32_t time)
{
	*(bool *)data = true;
	wl_callback_destroy(callback);
}

static const struct wl_callback_listener frame_listener = { frame_done };

static void fill(uint32_t *pixels, int x0, int y0, int w, int h, uint32_t color)
{
	for (int y = y0; y < y0 + h; y++)
		for (int x = x0; x < x0 + w; x++)
			pixels[y * WIDTH + x] = color;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int frames = argc > 2 ? atoi(argv[2]) : 6;
	bool mixed = strcmp(mode, "mixed-scale") == 0, grow = strcmp(mode, "grow-pool") == 0,
	     mid = strcmp(mode, "exit-mid-commit") == 0, unread = strcmp(mode, "exit-unread") == 0,
	     pending = strcmp(mode, "destroy-pending") == 0;
	if (!(mixed || grow || mid || unread || pending) || frames < 1 || frames > MAX_FRAMES) {
		fprintf(stderr, "usage: edge-cases mixed-scale|grow-pool|exit-mid-commit|exit-unread|destroy-pending [FRAMES ≤ %d]\n", MAX_FRAMES);
		return 2;
	}
	struct wl_display *display = connect_or_exit("edge-cases");

	/* Room for every frame's buffer: grow-pool uses one more slot per frame, the others
	 * alternate two. The pool starts with what it needs first. */
	size_t capacity = (size_t)(MAX_FRAMES + 1) * SIZE;
	int fd = memfd_create("edge-cases", MFD_CLOEXEC);
	size_t pool_size = grow ? SIZE : unread ? 3 * SIZE : 2 * SIZE;
	if (fd < 0 || ftruncate(fd, pool_size) < 0)
		return 2;
	uint8_t *memory = mmap(NULL, capacity, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (memory == MAP_FAILED)
		return 2;
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, pool_size);
	struct wl_buffer *buffers[MAX_FRAMES + 1] = { 0 };

	struct wl_surface *surface = wl_compositor_create_surface(compositor);
	struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
	xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, NULL);
	struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
	xdg_toplevel_set_title(toplevel, "edge-cases");
	if (mixed)
		wl_surface_set_buffer_scale(surface, 2);
	wl_surface_commit(surface);
	while (!configured)
		if (wl_display_dispatch(display) < 0)
			return 2;

	static uint32_t shown[WIDTH * HEIGHT];
	for (int i = 0; i < WIDTH * HEIGHT; i++)
		shown[i] = 0xff808080;
	int last = -1;
	for (int frame = 0; frame <= (mid ? 1 : unread ? 3 : frames); frame++) {
		/* exit-unread's last frame cannot wait for a release (the inspector is stopped). */
		int slot = grow ? frame : unread && frame == 3 ? 2 : frame % 2;
		if (grow && frame > 0) {
			pool_size = (size_t)(frame + 1) * SIZE;
			if (ftruncate(fd, pool_size) < 0)
				return 2;
			wl_shm_pool_resize(pool, pool_size);
		}
		if (pending && frame == 1) {
			struct wl_buffer *doomed = wl_shm_pool_create_buffer(pool, SIZE, WIDTH, HEIGHT, STRIDE,
									     WL_SHM_FORMAT_XRGB8888);
			wl_surface_attach(surface, doomed, 0, 0);
			wl_surface_damage_buffer(surface, 0, 0, WIDTH, HEIGHT);
			wl_buffer_destroy(doomed);
			wl_surface_commit(surface);
			wl_display_roundtrip(display);
			/* The initial commit again (Weston 10 sends no new configure for it). */
			wl_surface_commit(surface);
			wl_display_roundtrip(display);
			fill(shown, 20, 20, 30, 30, 0xff204080);
			memcpy(memory + SIZE, shown, SIZE);
			struct wl_buffer *again = wl_shm_pool_create_buffer(pool, SIZE, WIDTH, HEIGHT, STRIDE,
									     WL_SHM_FORMAT_XRGB8888);
			wl_surface_attach(surface, again, 0, 0);
			wl_surface_damage_buffer(surface, 20, 20, 5, 5);
			wl_surface_commit(surface);
			wl_display_roundtrip(display);
			printf("frame 1\n");
			break;
		}
		if (!buffers[slot]) {
			buffers[slot] = wl_shm_pool_create_buffer(pool, slot * SIZE, WIDTH, HEIGHT, STRIDE,
								  WL_SHM_FORMAT_XRGB8888);
			wl_buffer_add_listener(buffers[slot], &buffer_listener, (void *)(intptr_t)slot);
		}
		while (busy[slot])
			if (wl_display_dispatch(display) < 0)
				return 2;
		uint32_t color = 0xff000000 | (uint32_t)(frame * 0x3a5f17 + 0x102030);
		/* Buffer rectangles: a at odd coordinates (declared in surface coordinates, so
		 * the declaration rounds outwards to even buffer pixels), b declared exactly. */
		int ax = 11 + (frame * 14) % 120, ay = 7 + (frame * 9) % 90, bx = 150 - (frame * 6) % 100, by = 120 - (frame * 5) % 80;
		if (frame > 0) {
			fill(shown, ax, ay, 9, 7, color);
			if (mixed)
				fill(shown, bx, by, 12, 10, ~color | 0xff000000);
		}
		memcpy(memory + slot * SIZE, shown, SIZE);
		wl_surface_attach(surface, buffers[slot], 0, 0);
		if (frame == 0) {
			wl_surface_damage_buffer(surface, 0, 0, WIDTH, HEIGHT);
		} else if (mixed) {
			wl_surface_damage(surface, ax / 2, ay / 2, (ax + 9 + 1) / 2 - ax / 2, (ay + 7 + 1) / 2 - ay / 2);
			wl_surface_damage_buffer(surface, bx, by, 12, 10);
		} else {
			wl_surface_damage_buffer(surface, ax, ay, 9, 7);
		}
		if (mid && frame == 1) {
			/* Half of a wl_surface.commit header (object id, then nothing), and gone. */
			wl_display_flush(display);
			uint32_t half = wl_proxy_get_id((struct wl_proxy *)surface);
			ssize_t written = write(wl_display_get_fd(display), &half, sizeof half);
			_exit(written == sizeof half ? 0 : 2);
		}
		busy[slot] = true;
		if (unread && frame == 1) {
			bool shown = false;
			wl_callback_add_listener(wl_surface_frame(surface), &frame_listener, &shown);
			wl_surface_commit(surface);
			while (!shown)
				if (wl_display_dispatch(display) < 0)
					return 2;
			printf("frame %d\n", frame);
			continue;
		}
		if (unread && frame == 2) {
			/* A repaint just happened: the next, which answers this commit, is a frame away. */
			wl_surface_frame(surface);
			wl_surface_commit(surface);
			wl_display_roundtrip(display);
			kill(getppid(), SIGSTOP);
			usleep(200 * 1000);
			printf("frame %d\n", frame);
			continue;
		}
		wl_surface_commit(surface);
		if (unread && frame == 3) {
			wl_display_flush(display);
			printf("frame %d\n", frame);
			fflush(stdout);
			pid_t inspector = getppid();
			if (fork() == 0) {
				close(wl_display_get_fd(display));
				usleep(100 * 1000);
				kill(inspector, SIGCONT);
				_exit(0);
			}
			_exit(0);
		}
		wl_display_roundtrip(display);
		if (frame > 0)
			printf("frame %d\n", frame);
		if (grow && last >= 0) {
			while (busy[last])
				if (wl_display_dispatch(display) < 0)
					return 2;
			wl_buffer_destroy(buffers[last]);
			buffers[last] = NULL;
		}
		last = grow ? slot : -1;
		fflush(stdout);
	}
	printf("done\n");
	fflush(stdout);
	wl_display_disconnect(display);
	return 0;
}
