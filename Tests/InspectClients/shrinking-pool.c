/*
 * A hostile wl_shm client for the damask-inspect tests: it shrinks its pool's file while
 * the buffers in it are being committed (and read).
 *
 *   shrinking-pool [FRAMES]
 *   shrinking-pool once
 *
 * Maps an 800x600 toplevel from one memfd pool, then commits FRAMES frames with full damage
 * while a second thread keeps truncating the memfd to 4 KiB and growing it back to the pool
 * size. Whoever reads the pool through a memory mapping at the wrong moment gets SIGBUS; a
 * compositor guards its reads and may disconnect the client, which ends the loop early.
 * "once" instead commits one full frame, truncates the memfd to 4 KiB, then attaches the same
 * buffer again with full damage and commits (the buffer now lies past the file's end).
 * Prints "committed N" at the end and exits 0, or 2 when it cannot connect or map.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include "inspect-client.h"

enum { WIDTH = 800, HEIGHT = 600, STRIDE = WIDTH * 4, SIZE = STRIDE * HEIGHT };

static atomic_bool stop;

/* Shrinks and regrows the pool file until told to stop. */
static void *shrink_loop(void *data)
{
	int fd = *(int *)data;
	for (unsigned long i = 0; !atomic_load(&stop); i++)
		if (ftruncate(fd, i % 2 == 0 ? 4096 : SIZE) < 0)
			break;
	return NULL;
}

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 60;
	struct wl_display *display = connect_or_exit("shrinking-pool");

	int fd = memfd_create("shrinking-pool", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, SIZE) < 0)
		return 2;
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, SIZE);
	struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, WIDTH, HEIGHT, STRIDE,
							     WL_SHM_FORMAT_XRGB8888);
	struct wl_surface *surface = wl_compositor_create_surface(compositor);
	struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
	xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, NULL);
	struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
	xdg_toplevel_set_title(toplevel, "shrinking-pool");
	wl_surface_commit(surface);
	while (!configured)
		if (wl_display_dispatch(display) < 0)
			return 2;

	if (argc > 1 && strcmp(argv[1], "once") == 0) {
		int committed = 0;
		for (int frame = 0; frame < 2; frame++) {
			if (frame == 1 && ftruncate(fd, 4096) < 0)
				return 2;
			wl_surface_attach(surface, buffer, 0, 0);
			wl_surface_damage_buffer(surface, 0, 0, WIDTH, HEIGHT);
			wl_surface_commit(surface);
			if (wl_display_roundtrip(display) < 0)
				break; /* the compositor disconnected us for the shrunk pool */
			committed++;
		}
		printf("committed %d\n", committed);
		fflush(stdout);
		wl_display_disconnect(display);
		return 0;
	}

	pthread_t thread;
	if (pthread_create(&thread, NULL, shrink_loop, &fd) != 0)
		return 2;
	int committed = 0;
	for (int frame = 0; frame < frames; frame++) {
		wl_surface_attach(surface, buffer, 0, 0);
		wl_surface_damage_buffer(surface, 0, 0, WIDTH, HEIGHT);
		wl_surface_commit(surface);
		if (wl_display_roundtrip(display) < 0)
			break; /* the compositor disconnected us: also a fair answer */
		committed++;
	}
	atomic_store(&stop, true);
	pthread_join(thread, NULL);
	printf("committed %d\n", committed);
	fflush(stdout);
	wl_display_disconnect(display);
	return 0;
}
