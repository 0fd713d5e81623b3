/*
 * Known-answer cases for damask-inspect that surface-states.c does not play (a re-check of
 * issue 34 from outside), each on a toplevel of its own titled after it.
 *
 *   recheck-cases [common] [odd-scale]     (no argument: common)
 *   recheck-cases probe-odd-scale          (a screen check by hand, see probe_odd_scale)
 *
 * Prints, like surface-states.c, one line per commit whose answer it knows:
 *
 *   expect SURFACE COMMIT CHANGED UNDER SPACE HELD
 *
 * "odd-scale" (a 41x41 buffer at buffer scale 2: Weston 10 shows 20x20 surface pixels, the
 * last buffer row and column never; mutter posts invalid_size) is played on its own. Prints
 * "done"; exits 0, 2 when it cannot connect or map.
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
#include "viewporter-client-protocol.h"

static struct wl_display *display;
static struct wp_viewporter *viewporter;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version)
{
	if (strcmp(interface, "wp_viewporter") == 0)
		viewporter = wl_registry_bind(registry, name, &wp_viewporter_interface, 1);
}

static const struct wl_registry_listener listener = { global, registry_remove };

/* A 4-byte-a-pixel buffer in a memfd of its own (never freed: the process is short). */
struct buffer {
	struct wl_buffer *buffer;
	uint32_t *pixels;
	int width, height;
};

static void fill(struct buffer *b, int x0, int y0, int w, int h, uint32_t color)
{
	for (int y = y0; y < y0 + h; y++)
		for (int x = x0; x < x0 + w; x++)
			b->pixels[(size_t)y * b->width + x] = color;
}

static struct buffer make_buffer(int width, int height, uint32_t color)
{
	struct buffer b = { NULL, NULL, width, height };
	size_t size = (size_t)width * height * 4;
	int fd = memfd_create("recheck-cases", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, size) < 0)
		exit(2);
	b.pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (b.pixels == MAP_FAILED)
		exit(2);
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
	b.buffer = wl_shm_pool_create_buffer(pool, 0, width, height, width * 4, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	fill(&b, 0, 0, width, height, color);
	return b;
}

static struct buffer copy_buffer(const struct buffer *from)
{
	struct buffer b = make_buffer(from->width, from->height, 0);
	memcpy(b.pixels, from->pixels, (size_t)from->width * from->height * 4);
	return b;
}

static unsigned id(struct wl_surface *surface) { return wl_proxy_get_id((struct wl_proxy *)surface); }

static void expect(struct wl_surface *surface, int commit, int changed, int under, const char *space)
{
	printf("expect %u %d %d %d %s 0\n", id(surface), commit, changed, under, space);
}

static void roundtrip(void)
{
	if (wl_display_roundtrip(display) < 0)
		exit(2);
}

/* A mapped toplevel titled `title` (its commit 1 has no buffer). */
/* The role objects of the last toplevel() made (owned by this file; destroyed only where a
 * case takes the toplevel down). */
static struct xdg_surface *last_xdg_surface;
static struct xdg_toplevel *last_xdg_toplevel;

static struct wl_surface *toplevel(const char *title)
{
	struct wl_surface *surface = wl_compositor_create_surface(compositor);
	struct xdg_surface *xdg = xdg_wm_base_get_xdg_surface(wm_base, surface);
	xdg_surface_add_listener(xdg, &xdg_surface_listener, NULL);
	struct xdg_toplevel *top = xdg_surface_get_toplevel(xdg);
	last_xdg_surface = xdg;
	last_xdg_toplevel = top;
	xdg_toplevel_add_listener(top, &toplevel_listener, NULL);
	xdg_toplevel_set_title(top, title);
	configured = false;
	wl_surface_commit(surface);
	while (!configured)
		if (wl_display_dispatch(display) < 0)
			exit(2);
	return surface;
}

static void commit_buffer(struct wl_surface *surface, struct buffer *b)
{
	wl_surface_attach(surface, b->buffer, 0, 0);
	wl_surface_commit(surface);
}

/* Maps `b` on `s`, damaged whole (commit 2 of a toplevel). */
static void map_whole(struct wl_surface *s, struct buffer *b)
{
	wl_surface_damage_buffer(s, 0, 0, b->width, b->height);
	commit_buffer(s, b);
	roundtrip();
}

/* Damage given before the attach and after it, in the same commit: the same. */
static void damage_order(void)
{
	struct wl_surface *s = toplevel("damage-order");
	struct buffer a = make_buffer(40, 40, 0xff808080);
	map_whole(s, &a);
	struct buffer b = copy_buffer(&a);
	fill(&b, 5, 5, 2, 2, 0xffc02020);
	wl_surface_damage(s, 5, 5, 2, 2);
	commit_buffer(s, &b);
	expect(s, 3, 4, 0, "buffer");
	roundtrip();
	struct buffer c = copy_buffer(&b);
	fill(&c, 10, 10, 2, 2, 0xffc02020);
	wl_surface_attach(s, c.buffer, 0, 0);
	wl_surface_damage(s, 10, 10, 2, 2);
	wl_surface_commit(s);
	expect(s, 4, 4, 0, "buffer");
	roundtrip();
}

/* Buffer scale 3 with a viewport: adjacent and overlapping surface damage rects. */
static void scale3_rects(void)
{
	struct wl_surface *s = toplevel("scale3-rects");
	struct wp_viewport *vp = wp_viewporter_get_viewport(viewporter, s);
	wl_surface_set_buffer_scale(s, 3);
	wp_viewport_set_destination(vp, 60, 60); /* 60x60 buffer, 20x20 logical, shown 60x60 */
	struct buffer a = make_buffer(60, 60, 0xff808080);
	map_whole(s, &a);
	struct buffer b = copy_buffer(&a);
	fill(&b, 28, 10, 4, 1, 0xffc02020);
	wl_surface_damage(s, 0, 10, 30, 1); /* adjacent at x = 30 */
	wl_surface_damage(s, 30, 10, 30, 1);
	commit_buffer(s, &b);
	expect(s, 3, 4, 0, "buffer");
	roundtrip();
	struct buffer c = copy_buffer(&b);
	fill(&c, 28, 20, 4, 3, 0xff20c020);
	wl_surface_damage(s, 20, 20, 10, 3); /* overlapping */
	wl_surface_damage(s, 25, 20, 10, 2); /* row 22: only x 20..29 damaged */
	commit_buffer(s, &c);
	expect(s, 4, 12, 2, "buffer");
	roundtrip();
	/* Shown at the logical size (3 buffer pixels a surface pixel): surface pixel 10, 3
	 * covers buffer 30..32 x 9..11; buffer 29 is left stale. */
	wp_viewport_set_destination(vp, 20, 20);
	struct buffer d = copy_buffer(&c);
	map_whole(s, &d);
	struct buffer e = copy_buffer(&d);
	fill(&e, 29, 9, 4, 1, 0xff2020c0);
	wl_surface_damage(s, 10, 3, 1, 1);
	commit_buffer(s, &e);
	expect(s, 6, 4, 1, "buffer");
	roundtrip();
}

/* A destination equal to the buffer's size set without a source, then unset or the viewport
 * destroyed: the same surface size, compared on the surface. */
static void destination_removed(bool destroy)
{
	struct wl_surface *s = toplevel(destroy ? "viewport-destroyed" : "destination-unset");
	struct wp_viewport *vp = wp_viewporter_get_viewport(viewporter, s);
	wp_viewport_set_destination(vp, 40, 40);
	struct buffer a = make_buffer(40, 40, 0xff808080);
	map_whole(s, &a);
	if (destroy)
		wp_viewport_destroy(vp);
	else
		wp_viewport_set_destination(vp, -1, -1);
	struct buffer b = copy_buffer(&a);
	fill(&b, 3, 3, 1, 1, 0xffc02020);
	fill(&b, 30, 30, 2, 2, 0xffc02020);
	wl_surface_damage(s, 30, 30, 2, 2);
	commit_buffer(s, &b);
	expect(s, 3, 5, 1, "surface");
	roundtrip();
}

/* The same buffer attached again, unchanged: with and without damage. */
static void same_buffer(void)
{
	struct wl_surface *s = toplevel("same-buffer");
	struct buffer a = make_buffer(40, 40, 0xff808080);
	map_whole(s, &a);
	commit_buffer(s, &a);
	expect(s, 3, 0, 0, "buffer");
	roundtrip();
	wl_surface_damage(s, 0, 0, 5, 5);
	commit_buffer(s, &a);
	expect(s, 4, 0, 0, "buffer");
	roundtrip();
}

/* Damage of INT32_MAX size, and damage far outside the surface, with a transform and a
 * viewport; and far outside at a transform change (compared on the surface). */
static void huge_damage(void)
{
	struct wl_surface *s = toplevel("huge-damage");
	struct wp_viewport *vp = wp_viewporter_get_viewport(viewporter, s);
	wl_surface_set_buffer_transform(s, WL_OUTPUT_TRANSFORM_90);
	wp_viewport_set_destination(vp, 80, 80);
	struct buffer a = make_buffer(40, 40, 0xff808080);
	map_whole(s, &a);
	struct buffer b = copy_buffer(&a);
	fill(&b, 1, 1, 1, 1, 0xffc02020);
	wl_surface_damage(s, 0, 0, INT32_MAX, INT32_MAX);
	commit_buffer(s, &b);
	expect(s, 3, 1, 0, "buffer");
	roundtrip();
	struct buffer c = copy_buffer(&b);
	fill(&c, 2, 2, 1, 1, 0xffc02020);
	wl_surface_damage(s, -5000, -5000, 100, 100);
	wl_surface_damage(s, INT32_MIN, INT32_MIN, INT32_MAX, INT32_MAX);
	wl_surface_damage(s, 100000, 100000, INT32_MAX, INT32_MAX);
	commit_buffer(s, &c);
	expect(s, 4, 1, 1, "buffer");
	roundtrip();

	struct wl_surface *t = toplevel("far-damage-transform");
	struct buffer d = make_buffer(40, 40, 0xff808080);
	fill(&d, 0, 0, 40, 10, 0xffc02020);
	map_whole(t, &d);
	wl_surface_set_buffer_transform(t, WL_OUTPUT_TRANSFORM_180);
	wl_surface_damage(t, -5000, 0, 100, 40);
	wl_surface_damage(t, 0, -300, 40, 290);
	commit_buffer(t, &d);
	expect(t, 3, 800, 800, "surface");
	roundtrip();
}

/* A sub-surface toggled between synchronized and desynchronized with state cached. */
static void sync_toggle(void)
{
	struct wl_surface *p = toplevel("sync-toggle");
	struct wl_surface *s = wl_compositor_create_surface(compositor);
	struct wl_subsurface *sub = wl_subcompositor_get_subsurface(subcompositor, s, p);
	struct buffer pa = make_buffer(40, 40, 0xff808080);
	struct buffer a = make_buffer(20, 20, 0xff606060);
	wl_surface_damage_buffer(s, 0, 0, 20, 20);
	commit_buffer(s, &a);
	map_whole(p, &pa);
	/* Cached with damage, applied by set_desync. */
	struct buffer b = copy_buffer(&a);
	fill(&b, 2, 2, 1, 1, 0xffc02020);
	wl_surface_damage_buffer(s, 2, 2, 1, 1);
	commit_buffer(s, &b);
	wl_subsurface_set_desync(sub);
	expect(s, 2, 1, 0, "buffer");
	roundtrip();
	/* Synchronized again: cached without damage, applied by the parent. */
	wl_subsurface_set_sync(sub);
	struct buffer c = copy_buffer(&b);
	fill(&c, 4, 4, 1, 1, 0xffc02020);
	commit_buffer(s, &c);
	wl_surface_commit(p);
	expect(s, 3, 1, 1, "buffer");
	roundtrip();
	/* Two cached commits (damage in the first, the change in the second), set_desync then
	 * set_sync before the parent's commit: applied together at set_desync. */
	struct buffer d = copy_buffer(&c);
	wl_surface_damage_buffer(s, 6, 6, 1, 1);
	commit_buffer(s, &d);
	struct buffer e = copy_buffer(&d);
	fill(&e, 6, 6, 1, 1, 0xffc02020);
	fill(&e, 8, 8, 1, 1, 0xffc02020);
	commit_buffer(s, &e);
	wl_subsurface_set_desync(sub);
	wl_subsurface_set_sync(sub);
	wl_surface_commit(p);
	expect(s, 5, 2, 1, "buffer");
	roundtrip();
}

/* One buffer shown by a toplevel and by its synchronized sub-surface. */
static void shared_buffer(void)
{
	struct wl_surface *p = toplevel("shared-buffer");
	struct wl_surface *s = wl_compositor_create_surface(compositor);
	wl_subcompositor_get_subsurface(subcompositor, s, p);
	struct buffer a = make_buffer(40, 40, 0xff808080);
	wl_surface_damage_buffer(s, 0, 0, 40, 40);
	commit_buffer(s, &a);
	map_whole(p, &a);
	struct buffer b = copy_buffer(&a);
	fill(&b, 1, 1, 1, 1, 0xffc02020);
	fill(&b, 30, 30, 2, 1, 0xffc02020);
	commit_buffer(s, &b); /* cached, no damage */
	wl_surface_damage_buffer(p, 1, 1, 1, 1);
	commit_buffer(p, &b);
	expect(p, 3, 3, 2, "buffer");
	expect(s, 2, 3, 3, "buffer");
	roundtrip();
}

/* A toplevel destroyed while its synchronized sub-surface has state cached; the sub-surface
 * then made a toplevel of its own is new content. */
static void parent_destroyed(void)
{
	struct wl_surface *p = toplevel("parent-destroyed");
	struct xdg_surface *p_xdg = last_xdg_surface;
	struct xdg_toplevel *p_top = last_xdg_toplevel;
	struct wl_surface *s = wl_compositor_create_surface(compositor);
	struct wl_subsurface *sub = wl_subcompositor_get_subsurface(subcompositor, s, p);
	struct buffer pa = make_buffer(40, 40, 0xff808080);
	struct buffer a = make_buffer(20, 20, 0xff606060);
	wl_surface_damage_buffer(s, 0, 0, 20, 20);
	commit_buffer(s, &a);
	map_whole(p, &pa);
	struct buffer b = copy_buffer(&a);
	fill(&b, 3, 3, 1, 1, 0xffc02020);
	commit_buffer(s, &b); /* cached */
	/* Role objects first, as xdg-shell asks. With the wl_surface destroyed first, mutter 43
	 * once ended this client with "invalid object 68" (a parallel test run at load 28);
	 * the case is about the sub-surface's cache, not about that order. */
	xdg_toplevel_destroy(p_top);
	xdg_surface_destroy(p_xdg);
	wl_surface_destroy(p);
	roundtrip();
	/* Its id goes to the next new object: a toplevel whose commits must not apply the
	 * orphan's cache. */
	struct wl_surface *q = toplevel("parent-destroyed-next");
	struct buffer qa = make_buffer(40, 40, 0xff808080);
	map_whole(q, &qa);
	wl_subsurface_destroy(sub);
	roundtrip();
}

/* A 41x41 buffer at scale 2 (Weston 10: a 20x20 surface; buffer row and column 40 are never
 * shown): a change there without damage is not under-damage. */
static void odd_scale(void)
{
	struct wl_surface *s = toplevel("odd-scale");
	wl_surface_set_buffer_scale(s, 2);
	struct buffer a = make_buffer(41, 41, 0xff808080);
	map_whole(s, &a);
	struct buffer b = copy_buffer(&a);
	fill(&b, 40, 0, 1, 41, 0xffc02020);
	fill(&b, 0, 40, 40, 1, 0xffc02020);
	fill(&b, 3, 3, 1, 1, 0xffc02020);
	wl_surface_damage_buffer(s, 3, 3, 1, 1);
	commit_buffer(s, &b);
	expect(s, 3, 82, 0, "buffer");
	roundtrip();
}

/* A screen check by hand: maps a 41x41 buffer at scale 2 under transform 180, grey with its
 * last column and row red, prints "shown" and waits for a line on standard input. Weston 10
 * shows a 20x20 surface without any red. */
static void probe_odd_scale(void)
{
	struct wl_surface *s = toplevel("probe-odd-scale");
	wl_surface_set_buffer_scale(s, 2);
	wl_surface_set_buffer_transform(s, WL_OUTPUT_TRANSFORM_180);
	struct buffer a = make_buffer(41, 41, 0xff808080);
	fill(&a, 40, 0, 1, 41, 0xffff0000);
	fill(&a, 0, 40, 41, 1, 0xffff0000);
	map_whole(s, &a);
	roundtrip();
	printf("shown\n");
	fflush(stdout);
	char line[16];
	if (!fgets(line, sizeof line, stdin))
		exit(2);
}

int main(int argc, char **argv)
{
	display = connect_or_exit("recheck-cases");
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &listener, NULL);
	roundtrip();
	if (!subcompositor || !viewporter) {
		fprintf(stderr, "recheck-cases: missing globals\n");
		return 2;
	}
	bool common = argc < 2;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "common") == 0)
			common = true;
		if (strcmp(argv[i], "odd-scale") == 0)
			odd_scale();
		if (strcmp(argv[i], "probe-odd-scale") == 0)
			probe_odd_scale();
	}
	if (common) {
		damage_order();
		scale3_rects();
		destination_removed(false);
		destination_removed(true);
		same_buffer();
		huge_damage();
		sync_toggle();
		shared_buffer();
		parent_destroyed();
	}
	printf("done\n");
	fflush(stdout);
	wl_display_disconnect(display);
	return 0;
}
