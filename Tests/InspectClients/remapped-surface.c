/*
 * A broken wl_shm client whose wl_surface ids are reused, for the damask-inspect tests.
 *
 *   remapped-surface [ROUNDS]
 *
 * Each round makes a wl_surface, maps it as a 200x150 toplevel with one full frame, then
 * commits one under-damaged frame (a 10x20 change, only its top half declared), and destroys
 * the toplevel, its xdg_surface, its buffers and last the wl_surface; after a roundtrip
 * (delete_id) libwayland gives the next round's wl_surface the same object id. Prints
 *   round N surface ID under commit C
 * per round (C: that surface's commit number, counting every commit from 1), then "done".
 * Exits 0, or 2 when it cannot connect or map.
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

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	struct wl_display *display = connect_or_exit("remapped-surface");

	int fd = memfd_create("remapped-surface", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 2 * SIZE) < 0)
		return 2;
	uint32_t *memory = mmap(NULL, 2 * SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (memory == MAP_FAILED)
		return 2;
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, 2 * SIZE);

	for (int round = 1; round <= rounds; round++) {
		struct wl_buffer *buffers[2];
		for (int i = 0; i < 2; i++)
			buffers[i] = wl_shm_pool_create_buffer(pool, i * SIZE, WIDTH, HEIGHT, STRIDE,
							       WL_SHM_FORMAT_XRGB8888);
		struct wl_surface *surface = wl_compositor_create_surface(compositor);
		struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
		xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, NULL);
		struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
		xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
		xdg_toplevel_set_title(toplevel, "remapped-surface");
		configured = false;
		wl_surface_commit(surface);
		while (!configured)
			if (wl_display_dispatch(display) < 0)
				return 2;

		/* Commit 2: the first content, whole. */
		uint32_t *first = memory, *second = memory + WIDTH * HEIGHT;
		for (int i = 0; i < WIDTH * HEIGHT; i++)
			first[i] = 0xff808080;
		wl_surface_attach(surface, buffers[0], 0, 0);
		wl_surface_damage_buffer(surface, 0, 0, WIDTH, HEIGHT);
		wl_surface_commit(surface);
		wl_display_roundtrip(display);

		/* Commit 3: a 10x20 change, only its top half declared. */
		memcpy(second, first, SIZE);
		int x0 = 10 * round, y0 = 5 * round;
		for (int y = y0; y < y0 + 20; y++)
			for (int x = x0; x < x0 + 10; x++)
				second[y * WIDTH + x] = 0xff000000 | (uint32_t)(round * 0x3a5f17);
		wl_surface_attach(surface, buffers[1], 0, 0);
		wl_surface_damage_buffer(surface, x0, y0, 10, 10);
		wl_surface_commit(surface);
		wl_display_roundtrip(display);
		printf("round %d surface %u under commit 3\n", round, wl_proxy_get_id((struct wl_proxy *)surface));
		fflush(stdout);

		xdg_toplevel_destroy(toplevel);
		xdg_surface_destroy(xdg_surface);
		for (int i = 0; i < 2; i++)
			wl_buffer_destroy(buffers[i]);
		wl_surface_destroy(surface);
		wl_display_roundtrip(display);
	}
	printf("done\n");
	fflush(stdout);
	wl_display_disconnect(display);
	return 0;
}
