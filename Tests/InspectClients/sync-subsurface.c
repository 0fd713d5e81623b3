/*
 * A correct wl_shm client with a synchronized sub-surface, for the damask-inspect tests.
 *
 *   sync-subsurface [FRAMES]
 *
 * Maps a 200x150 toplevel with a 100x50 sub-surface at (20, 20), synchronized (the default),
 * so its commits only take effect at the parent's next commit. Each frame commits the
 * sub-surface twice before the parent's commit: first a buffer with one new 10x10 square,
 * declaring the damage of that square and of the next one, then a buffer with both squares
 * and no damage of its own. The state the parent's commit applies changes exactly the two
 * squares under the damage of both cached commits: correct, although the second commit on its
 * own changed a square it did not damage. Every sub-surface commit uses a fresh buffer.
 * Prints "frames N" and "done"; exits 0, or 2 when it cannot connect or map.
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

enum { WIDTH = 200, HEIGHT = 150, SUB_WIDTH = 100, SUB_HEIGHT = 50, SQUARE = 10 };

/* A pool of `count` buffers of width x height XRGB8888, in one memfd. */
struct pool {
	struct wl_buffer **buffers;
	uint32_t *pixels;
	int count, used, width, height;
};

static bool make_pool(struct pool *pool, int count, int width, int height)
{
	size_t size = (size_t)count * width * height * 4;
	int fd = memfd_create("sync-subsurface", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, size) < 0)
		return false;
	pool->pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pool->pixels == MAP_FAILED)
		return false;
	struct wl_shm_pool *shm_pool = wl_shm_create_pool(shm, fd, size);
	pool->buffers = calloc(count, sizeof *pool->buffers);
	for (int i = 0; i < count; i++)
		pool->buffers[i] = wl_shm_pool_create_buffer(shm_pool, i * width * height * 4, width,
							     height, width * 4, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(shm_pool);
	close(fd);
	pool->count = count, pool->used = 0, pool->width = width, pool->height = height;
	return true;
}

/* The next fresh buffer, filled with `content`. */
static struct wl_buffer *next_buffer(struct pool *pool, const uint32_t *content)
{
	int i = pool->used++ % pool->count;
	memcpy(pool->pixels + (size_t)i * pool->width * pool->height, content,
	       (size_t)pool->width * pool->height * 4);
	return pool->buffers[i];
}

static void square(uint32_t *content, int x0, int y0, uint32_t color)
{
	for (int y = y0; y < y0 + SQUARE; y++)
		for (int x = x0; x < x0 + SQUARE; x++)
			content[y * SUB_WIDTH + x] = color;
}

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 8;
	if (frames < 1 || frames > 100)
		frames = 8;
	struct wl_display *display = connect_or_exit("sync-subsurface");
	if (!subcompositor) {
		fprintf(stderr, "sync-subsurface: missing globals\n");
		return 2;
	}

	struct pool parent_pool, sub_pool;
	if (!make_pool(&parent_pool, 1, WIDTH, HEIGHT) || !make_pool(&sub_pool, 2 * frames + 1, SUB_WIDTH, SUB_HEIGHT))
		return 2;

	struct wl_surface *parent = wl_compositor_create_surface(compositor);
	struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, parent);
	xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, NULL);
	struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
	xdg_toplevel_set_title(toplevel, "sync-subsurface");
	struct wl_surface *child = wl_compositor_create_surface(compositor);
	struct wl_subsurface *subsurface = wl_subcompositor_get_subsurface(subcompositor, child, parent);
	wl_subsurface_set_position(subsurface, 20, 20);
	wl_surface_commit(parent);
	while (!configured)
		if (wl_display_dispatch(display) < 0)
			return 2;

	static uint32_t parent_content[WIDTH * HEIGHT], shown[SUB_WIDTH * SUB_HEIGHT];
	for (int i = 0; i < WIDTH * HEIGHT; i++)
		parent_content[i] = 0xff808080;
	for (int i = 0; i < SUB_WIDTH * SUB_HEIGHT; i++)
		shown[i] = 0xff204060;
	wl_surface_attach(child, next_buffer(&sub_pool, shown), 0, 0);
	wl_surface_damage_buffer(child, 0, 0, SUB_WIDTH, SUB_HEIGHT);
	wl_surface_commit(child);
	wl_surface_attach(parent, next_buffer(&parent_pool, parent_content), 0, 0);
	wl_surface_damage_buffer(parent, 0, 0, WIDTH, HEIGHT);
	wl_surface_commit(parent);
	wl_display_roundtrip(display);

	for (int frame = 0; frame < frames; frame++) {
		int x1 = (frame * 23) % (SUB_WIDTH - SQUARE), y1 = (frame * 7) % (SUB_HEIGHT - SQUARE);
		int x2 = (frame * 37 + 50) % (SUB_WIDTH - SQUARE), y2 = (frame * 13 + 20) % (SUB_HEIGHT - SQUARE);
		uint32_t color = 0xff000000 | (uint32_t)(frame * 0x3a5f17 + 0x102030);
		square(shown, x1, y1, color);
		wl_surface_attach(child, next_buffer(&sub_pool, shown), 0, 0);
		wl_surface_damage_buffer(child, x1, y1, SQUARE, SQUARE);
		wl_surface_damage_buffer(child, x2, y2, SQUARE, SQUARE); /* declared ahead */
		wl_surface_commit(child);
		square(shown, x2, y2, color ^ 0x00ffffff);
		wl_surface_attach(child, next_buffer(&sub_pool, shown), 0, 0);
		wl_surface_commit(child); /* no damage of its own */
		wl_surface_commit(parent); /* applies both */
		if (wl_display_roundtrip(display) < 0)
			return 2;
	}
	printf("frames %d\ndone\n", frames);
	fflush(stdout);
	wl_display_disconnect(display);
	return 0;
}
