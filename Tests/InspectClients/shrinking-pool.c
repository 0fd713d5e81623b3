/*
 * A hostile wl_shm client for the damask-inspect tests: it shrinks its pool's file while
 * the buffers in it are being committed (and read).
 *
 *   shrinking-pool [FRAMES]
 *
 * Maps an 800x600 toplevel from one memfd pool, then commits FRAMES frames with full damage
 * while a second thread keeps truncating the memfd to 4 KiB and growing it back to the pool
 * size. Whoever reads the pool through a memory mapping at the wrong moment gets SIGBUS; a
 * compositor guards its reads and may disconnect the client, which ends the loop early.
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
#include "xdg-shell-client-protocol.h"

enum { WIDTH = 800, HEIGHT = 600, STRIDE = WIDTH * 4, SIZE = STRIDE * HEIGHT };

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm_base;
static bool configured;
static atomic_bool stop;

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	if (strcmp(interface, "wl_compositor") == 0)
		compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, "wl_shm") == 0)
		shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	else if (strcmp(interface, "xdg_wm_base") == 0)
		wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
}

static void registry_remove(void *data, struct wl_registry *registry, uint32_t name) {}

static const struct wl_registry_listener registry_listener = { registry_global, registry_remove };

static void wm_ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
	xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_listener = { wm_ping };

static void surface_configure(void *data, struct xdg_surface *surface, uint32_t serial)
{
	xdg_surface_ack_configure(surface, serial);
	configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = { surface_configure };

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width,
			       int32_t height, struct wl_array *states) {}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {}

static const struct xdg_toplevel_listener toplevel_listener = { toplevel_configure, toplevel_close };

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
	struct wl_display *display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "shrinking-pool: cannot connect\n");
		return 2;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(display);
	if (!compositor || !shm || !wm_base) {
		fprintf(stderr, "shrinking-pool: missing globals\n");
		return 2;
	}
	xdg_wm_base_add_listener(wm_base, &wm_listener, NULL);

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
