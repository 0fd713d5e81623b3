/*
 * A deliberately broken wl_shm client for the damask-inspect tests.
 *
 *   broken-damage [FRAMES]
 *
 * Maps a 200x150 toplevel, then for each frame paints a new 10x20 rectangle into a fresh
 * copy of the last content but declares only its top half as damage (under-damage), and,
 * after a roundtrip, writes one pixel into the buffer it just committed if the compositor
 * has not released it (a write into a held buffer). It prints one line per broken commit:
 *   commit N under     (N: the wl_surface's commit number, counting every commit from 1)
 *   commit N held
 * and "done" at the end. Exits 0, or 2 when it cannot connect or map.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include "inspect-client.h"

enum { WIDTH = 200, HEIGHT = 150, STRIDE = WIDTH * 4, SIZE = STRIDE * HEIGHT };

struct buffer {
	struct wl_buffer *buffer;
	uint32_t *pixels;
	bool busy;
};

static void buffer_release(void *data, struct wl_buffer *wl_buffer)
{
	((struct buffer *)data)->busy = false;
}

static const struct wl_buffer_listener buffer_listener = { buffer_release };

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 8;
	struct wl_display *display = connect_or_exit("broken-damage");

	int fd = memfd_create("broken-damage", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 2 * SIZE) < 0)
		return 2;
	uint8_t *memory = mmap(NULL, 2 * SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (memory == MAP_FAILED)
		return 2;
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, 2 * SIZE);
	struct buffer buffers[2];
	for (int i = 0; i < 2; i++) {
		buffers[i].buffer = wl_shm_pool_create_buffer(pool, i * SIZE, WIDTH, HEIGHT, STRIDE,
							      WL_SHM_FORMAT_XRGB8888);
		buffers[i].pixels = (uint32_t *)(memory + i * SIZE);
		buffers[i].busy = false;
		wl_buffer_add_listener(buffers[i].buffer, &buffer_listener, &buffers[i]);
	}

	struct wl_surface *surface = wl_compositor_create_surface(compositor);
	struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
	xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, NULL);
	struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
	xdg_toplevel_set_title(toplevel, "broken-damage");
	wl_surface_commit(surface);
	int commits = 1;
	while (!configured)
		if (wl_display_dispatch(display) < 0)
			return 2;

	/* What the surface shows: every frame starts from it. */
	static uint32_t shown[WIDTH * HEIGHT];
	for (int i = 0; i < WIDTH * HEIGHT; i++)
		shown[i] = 0xff808080;

	for (int frame = 0; frame <= frames; frame++) {
		struct buffer *b = &buffers[frame % 2];
		while (b->busy)
			if (wl_display_dispatch(display) < 0)
				return 2;
		int x0 = 5 + (frame * 12) % (WIDTH - 20), y0 = 10 + (frame * 7) % (HEIGHT - 30);
		uint32_t color = 0xff000000 | (uint32_t)(frame * 0x3a5f17 + 0x102030);
		if (frame > 0)
			for (int y = y0; y < y0 + 20; y++)
				for (int x = x0; x < x0 + 10; x++)
					shown[y * WIDTH + x] = color;
		memcpy(b->pixels, shown, SIZE);
		wl_surface_attach(surface, b->buffer, 0, 0);
		if (frame == 0)
			wl_surface_damage_buffer(surface, 0, 0, WIDTH, HEIGHT);
		else
			wl_surface_damage_buffer(surface, x0, y0, 10, 10); /* half of the change */
		b->busy = true;
		wl_surface_commit(surface);
		commits++;
		if (frame > 0)
			printf("commit %d under\n", commits);
		wl_display_roundtrip(display);
		if (frame > 0 && b->busy) {
			/* The compositor still holds b: writing into it now is the bug. */
			b->pixels[WIDTH * HEIGHT - 1] ^= 0x00ffffff;
			printf("commit %d held\n", commits);
		}
		fflush(stdout);
	}
	/* Let the last held buffer be released (its write checked) before leaving. */
	wl_surface_attach(surface, NULL, 0, 0);
	wl_surface_commit(surface);
	wl_display_roundtrip(display);
	printf("done\n");
	fflush(stdout);
	wl_display_disconnect(display);
	return 0;
}
