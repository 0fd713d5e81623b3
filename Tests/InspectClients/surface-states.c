/*
 * Known-answer cases for damask-inspect's surface-state model, all played by one process.
 *
 *   surface-states [matrix] [cases]     (no argument: both)
 *   surface-states probe-transform      (a screen check by hand, see probe_transform)
 *   surface-states probe-subpixel       (a screen check by hand, see probe_subpixel)
 *
 * For every commit whose answer it knows, the client prints one line
 *
 *   expect SURFACE COMMIT CHANGED UNDER SPACE HELD   (SPACE: buffer or surface; HELD: 0 or 1)
 *
 * naming the wl_surface's object id and the surface's commit number (from 1), the pixels its
 * commit changed and the changed pixels outside the damage (buffer pixels, or surface pixels
 * when the commit changed the geometry, buffer size or format at the same surface size and is
 * compared on the surface), and whether the client wrote into a buffer after committing it.
 * "matrix" plays every buffer transform x buffer scale 1, 2 x viewport (none, destination
 * 2x, source crop) x damage / damage_buffer x sub-surface sync / desync x XRGB8888 /
 * ARGB8888 / RGB565 / XRGB2101010 (the last two where the compositor offers them) on
 * sub-surfaces of one toplevel: a change declared exactly (0 under-damage), a
 * change with the damage elsewhere (all of it under-damage), two changes in the same rows
 * each declared exactly (0), and, with a crop, a change outside the crop without damage
 * (never shown: 0). "cases" plays the named cases of issue
 * 34, each on a toplevel of its own titled after it. Prints "done"; exits 0, 2 when it cannot
 * connect or map.
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
/* Which of the matrix's extra formats the compositor offers. */
static bool has_rgb565, has_xrgb2101010;

static void shm_format(void *data, struct wl_shm *shm, uint32_t format)
{
	if (format == WL_SHM_FORMAT_RGB565)
		has_rgb565 = true;
	if (format == WL_SHM_FORMAT_XRGB2101010)
		has_xrgb2101010 = true;
}

static const struct wl_shm_listener shm_listener = { shm_format };

static void viewporter_global(void *data, struct wl_registry *registry, uint32_t name,
			      const char *interface, uint32_t version)
{
	if (strcmp(interface, "wp_viewporter") == 0)
		viewporter = wl_registry_bind(registry, name, &wp_viewporter_interface, 1);
	/* A second wl_shm, bound here to hear its formats (the first one's went unheard). */
	if (strcmp(interface, "wl_shm") == 0)
		wl_shm_add_listener(wl_registry_bind(registry, name, &wl_shm_interface, 1), &shm_listener, NULL);
}

static const struct wl_registry_listener viewporter_listener = { viewporter_global, registry_remove };

/* A buffer in a memfd of its own (never freed: the process is short); 4 bytes a pixel, 2 for
 * RGB565. */
struct buffer {
	struct wl_buffer *buffer;
	uint8_t *pixels;
	int width, height, bpp;
};

static void fill(struct buffer *b, int x0, int y0, int w, int h, uint32_t color);

static struct buffer make_buffer(int width, int height, uint32_t format, uint32_t color)
{
	int bpp = format == WL_SHM_FORMAT_RGB565 ? 2 : 4;
	struct buffer b = { NULL, NULL, width, height, bpp };
	size_t size = (size_t)width * height * bpp;
	int fd = memfd_create("surface-states", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, size) < 0)
		exit(2);
	b.pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (b.pixels == MAP_FAILED)
		exit(2);
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
	b.buffer = wl_shm_pool_create_buffer(pool, 0, width, height, width * bpp, format);
	wl_shm_pool_destroy(pool);
	close(fd);
	fill(&b, 0, 0, width, height, color);
	return b;
}

/* A copy of `from`'s pixels in a new buffer of the same size and `format` (of the same
 * pixel size). */
static struct buffer copy_buffer(const struct buffer *from, uint32_t format)
{
	struct buffer b = make_buffer(from->width, from->height, format, 0);
	memcpy(b.pixels, from->pixels, (size_t)from->width * from->height * from->bpp);
	return b;
}

/* Fills a rectangle with `color`'s low bytes (4, or 2 for RGB565), little-endian. */
static void fill(struct buffer *b, int x0, int y0, int w, int h, uint32_t color)
{
	for (int y = y0; y < y0 + h; y++)
		for (int x = x0; x < x0 + w; x++)
			memcpy(b->pixels + ((size_t)y * b->width + x) * b->bpp, &color, b->bpp);
}

static unsigned id(struct wl_surface *surface) { return wl_proxy_get_id((struct wl_proxy *)surface); }

static void expect(struct wl_surface *surface, int commit, int changed, int under, const char *space, int held)
{
	printf("expect %u %d %d %d %s %d\n", id(surface), commit, changed, under, space, held);
}

static void roundtrip(void)
{
	if (wl_display_roundtrip(display) < 0)
		exit(2);
}

/* A mapped toplevel titled `title`. */
static struct wl_surface *toplevel(const char *title)
{
	struct wl_surface *surface = wl_compositor_create_surface(compositor);
	struct xdg_surface *xdg = xdg_wm_base_get_xdg_surface(wm_base, surface);
	xdg_surface_add_listener(xdg, &xdg_surface_listener, NULL);
	struct xdg_toplevel *top = xdg_surface_get_toplevel(xdg);
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

/* ---- the matrix ---- */

enum { MW = 24, MH = 16 };

struct geometry {
	int transform, scale, viewport; /* viewport: 0 none, 1 destination 2x, 2 source crop */
};

/* The surface rectangle buffer rectangle (x, y, w, h) shows as, for the matrix's geometry
 * (integer by construction: rectangles are aligned to the scale). */
static void to_surface(const struct geometry *g, int x, int y, int w, int h, int out[4])
{
	bool swap = g->transform & 1;
	int tw = swap ? MH : MW, th = swap ? MW : MH;
	int px[2] = { x, x + w }, py[2] = { y, y + h };
	double sx[2], sy[2];
	for (int i = 0; i < 2; i++) {
		int bx = px[i], by = py[i], tx, ty;
		switch (g->transform) {
		case 1: tx = tw - by, ty = bx; break;
		case 2: tx = tw - bx, ty = th - by; break;
		case 3: tx = by, ty = th - bx; break;
		case 4: tx = tw - bx, ty = by; break;
		case 5: tx = by, ty = bx; break;
		case 6: tx = bx, ty = th - by; break;
		case 7: tx = tw - by, ty = th - bx; break;
		default: tx = bx, ty = by;
		}
		double lx = (double)tx / g->scale, ly = (double)ty / g->scale;
		if (g->viewport == 1)
			lx *= 2, ly *= 2;
		else if (g->viewport == 2)
			lx -= 1, ly -= 1;
		sx[i] = lx, sy[i] = ly;
	}
	out[0] = (int)(sx[0] < sx[1] ? sx[0] : sx[1]);
	out[1] = (int)(sy[0] < sy[1] ? sy[0] : sy[1]);
	out[2] = abs((int)(sx[1] - sx[0]));
	out[3] = abs((int)(sy[1] - sy[0]));
}

static void declare(struct wl_surface *surface, const struct geometry *g, bool surface_damage, int x, int y, int w, int h)
{
	if (surface_damage) {
		int r[4];
		to_surface(g, x, y, w, h, r);
		wl_surface_damage(surface, r[0], r[1], r[2], r[3]);
	} else {
		wl_surface_damage_buffer(surface, x, y, w, h);
	}
}

static void matrix(void)
{
	struct wl_surface *parent = toplevel("matrix");
	struct buffer back = make_buffer(64, 64, WL_SHM_FORMAT_XRGB8888, 0xff303030);
	commit_buffer(parent, &back);
	roundtrip();
	int cases = 0;
	for (int transform = 0; transform < 8; transform++)
	for (int scale = 1; scale <= 2; scale++)
	for (int viewport = 0; viewport < 3; viewport++)
	for (int surface_damage = 0; surface_damage < 2; surface_damage++)
	for (int sync = 0; sync < 2; sync++)
	for (int f = 0; f < 4; f++) {
		/* Colours below differ in their low 16 bits too, so they differ in every format. */
		static const uint32_t formats[] = { WL_SHM_FORMAT_XRGB8888, WL_SHM_FORMAT_ARGB8888, WL_SHM_FORMAT_RGB565, WL_SHM_FORMAT_XRGB2101010 };
		uint32_t format = formats[f];
		if ((format == WL_SHM_FORMAT_RGB565 && !has_rgb565) || (format == WL_SHM_FORMAT_XRGB2101010 && !has_xrgb2101010))
			continue;
		struct geometry g = { transform, scale, viewport };
		struct wl_surface *surface = wl_compositor_create_surface(compositor);
		struct wl_subsurface *sub = wl_subcompositor_get_subsurface(subcompositor, surface, parent);
		if (!sync)
			wl_subsurface_set_desync(sub);
		wl_surface_set_buffer_transform(surface, transform);
		wl_surface_set_buffer_scale(surface, scale);
		if (viewport) {
			struct wp_viewport *vp = wp_viewporter_get_viewport(viewporter, surface);
			bool swap = transform & 1;
			int lw = (swap ? MH : MW) / scale, lh = (swap ? MW : MH) / scale;
			if (viewport == 1)
				wp_viewport_set_destination(vp, 2 * lw, 2 * lh);
			else
				wp_viewport_set_source(vp, wl_fixed_from_int(1), wl_fixed_from_int(1),
						       wl_fixed_from_int(lw - 2), wl_fixed_from_int(lh - 2));
		}
		int commit = 0;
		struct buffer b = make_buffer(MW, MH, format, 0xff808080);
		wl_surface_damage_buffer(surface, 0, 0, MW, MH);
		commit_buffer(surface, &b);
		commit++;
		if (sync)
			wl_surface_commit(parent);
		/* A change declared exactly. */
		struct buffer c = copy_buffer(&b, format);
		fill(&c, 8, 6, 4, 4, 0xffc02121);
		declare(surface, &g, surface_damage, 8, 6, 4, 4);
		commit_buffer(surface, &c);
		expect(surface, ++commit, 16, 0, "buffer", 0);
		if (sync)
			wl_surface_commit(parent);
		/* A change with the damage elsewhere (a corner far from it). */
		struct buffer d = copy_buffer(&c, format);
		fill(&d, 14, 8, 4, 4, 0xff20c042);
		declare(surface, &g, surface_damage, 0, 0, 2, 2);
		commit_buffer(surface, &d);
		expect(surface, ++commit, 16, 16, "buffer", 0);
		if (sync)
			wl_surface_commit(parent);
		/* Two changes side by side in the same rows, each declared exactly (the damage's
		 * spans come in the opposite order under a flipped axis). */
		struct buffer two = copy_buffer(&d, format);
		fill(&two, 4, 10, 2, 2, 0xffc0c063);
		fill(&two, 16, 10, 2, 2, 0xffc0c063);
		declare(surface, &g, surface_damage, 4, 10, 2, 2);
		declare(surface, &g, surface_damage, 16, 10, 2, 2);
		commit_buffer(surface, &two);
		expect(surface, ++commit, 8, 0, "buffer", 0);
		if (sync)
			wl_surface_commit(parent);
		if (viewport == 2) {
			/* A change the crop hides (buffer pixel 0, 0 is outside every crop here). */
			struct buffer e = copy_buffer(&two, format);
			fill(&e, 0, 0, 1, 1, 0xff2020c4);
			commit_buffer(surface, &e);
			expect(surface, ++commit, 1, 0, "buffer", 0);
			if (sync)
				wl_surface_commit(parent);
		}
		roundtrip();
		cases++;
	}
	printf("matrix %d cases\n", cases);
}

/* ---- the named cases ---- */

static void invalid_damage(void)
{
	struct wl_surface *s = toplevel("invalid-damage");
	struct buffer a = make_buffer(40, 40, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	wl_surface_damage_buffer(s, 0, 0, 40, 40);
	commit_buffer(s, &a);
	struct buffer b = copy_buffer(&a, WL_SHM_FORMAT_XRGB8888);
	fill(&b, 20, 20, 10, 10, 0xffc02020);
	wl_surface_damage_buffer(s, 30, 30, -10, -10);
	wl_surface_damage(s, 30, 30, -10, -10);
	wl_surface_damage(s, 20, 20, 0, 10);
	commit_buffer(s, &b);
	expect(s, 3, 100, 100, "buffer", 0);
	roundtrip();
}

static void viewport_crop(void)
{
	struct wl_surface *s = toplevel("viewport-crop");
	struct wp_viewport *vp = wp_viewporter_get_viewport(viewporter, s);
	wp_viewport_set_source(vp, wl_fixed_from_int(10), wl_fixed_from_int(10), wl_fixed_from_int(20), wl_fixed_from_int(20));
	struct buffer a = make_buffer(40, 40, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	wl_surface_damage_buffer(s, 0, 0, 40, 40);
	commit_buffer(s, &a);
	struct buffer b = copy_buffer(&a, WL_SHM_FORMAT_XRGB8888);
	fill(&b, 0, 0, 5, 5, 0xffc02020);     /* outside the crop */
	fill(&b, 32, 20, 8, 2, 0xffc02020);   /* outside the crop */
	fill(&b, 15, 15, 2, 2, 0xff20c020);   /* inside */
	commit_buffer(s, &b);
	expect(s, 3, 25 + 16 + 4, 4, "buffer", 0);
	roundtrip();
}

/* Commits `first`, then sets what `change` sets and commits `second`; expects `changed` and
 * `under` surface pixels. */
static struct wl_surface *geometry_case(const char *title, struct buffer *first, struct buffer *second,
					void (*change)(struct wl_surface *, struct wp_viewport *),
					void (*before)(struct wl_surface *, struct wp_viewport *), int changed, int under)
{
	struct wl_surface *s = toplevel(title);
	struct wp_viewport *vp = wp_viewporter_get_viewport(viewporter, s);
	if (before)
		before(s, vp);
	wl_surface_damage_buffer(s, 0, 0, first->width, first->height);
	commit_buffer(s, first);
	roundtrip();
	change(s, vp);
	commit_buffer(s, second);
	expect(s, 3, changed, under, "surface", 0);
	roundtrip();
	return s;
}

static void rotate(struct wl_surface *s, struct wp_viewport *vp)
{
	wl_surface_set_buffer_transform(s, WL_OUTPUT_TRANSFORM_180);
	wl_surface_damage(s, 0, 0, 40, 10);
}
static void scale2(struct wl_surface *s, struct wp_viewport *vp) { wl_surface_set_buffer_scale(s, 2); }
static void source_left(struct wl_surface *s, struct wp_viewport *vp)
{
	wp_viewport_set_source(vp, 0, 0, wl_fixed_from_int(20), wl_fixed_from_int(20));
}
static void source_right(struct wl_surface *s, struct wp_viewport *vp)
{
	wp_viewport_set_source(vp, wl_fixed_from_int(20), 0, wl_fixed_from_int(20), wl_fixed_from_int(20));
	wl_surface_damage(s, 0, 0, 20, 10);
}
static void destination40(struct wl_surface *s, struct wp_viewport *vp) { wp_viewport_set_destination(vp, 40, 40); }
static void nothing(struct wl_surface *s, struct wp_viewport *vp) {}

static void geometry_cases(void)
{
	/* Buffer transform 0 -> 180, same buffer: the red top rows move to the bottom. */
	struct buffer t = make_buffer(40, 40, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	fill(&t, 0, 0, 40, 10, 0xffc02020);
	geometry_case("transform", &t, &t, rotate, NULL, 800, 400);
	/* Scale 1 -> 2 with a buffer twice the size showing the same, but one surface pixel. */
	struct buffer s1 = make_buffer(40, 40, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	fill(&s1, 0, 0, 10, 10, 0xffc02020);
	struct buffer s2 = make_buffer(80, 80, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	fill(&s2, 0, 0, 20, 20, 0xffc02020);
	fill(&s2, 40, 40, 2, 2, 0xff2020c0);
	geometry_case("scale", &s1, &s2, scale2, NULL, 1, 1);
	/* Viewport source from the red left half to the grey right half. */
	struct buffer v = make_buffer(40, 40, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	fill(&v, 0, 0, 20, 40, 0xffc02020);
	struct buffer v2 = copy_buffer(&v, WL_SHM_FORMAT_XRGB8888);
	geometry_case("viewport-source", &v, &v2, source_right, source_left, 400, 200);
	/* A 20x20 buffer behind a 40x40 destination replaced by a 40x40 one showing the same
	 * but one pixel. */
	struct buffer d1 = make_buffer(20, 20, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	fill(&d1, 0, 0, 10, 10, 0xffc02020);
	struct buffer d2 = make_buffer(40, 40, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	fill(&d2, 0, 0, 20, 20, 0xffc02020);
	fill(&d2, 39, 39, 1, 1, 0xff2020c0);
	geometry_case("destination", &d1, &d2, nothing, destination40, 1, 1);
	/* ARGB8888 with a translucent square, committed again as XRGB8888: it turns opaque. */
	struct buffer f1 = make_buffer(40, 40, WL_SHM_FORMAT_ARGB8888, 0xff808080);
	fill(&f1, 0, 0, 10, 10, 0x80404040);
	struct buffer f2 = copy_buffer(&f1, WL_SHM_FORMAT_XRGB8888);
	geometry_case("format", &f1, &f2, nothing, NULL, 100, 100);
}

static void subpixel_cases(void)
{
	/* Each buffer pixel shows as 4x4 surface pixels: damage of 2x2 of them leaves the rest
	 * of the changed pixel stale. */
	struct wl_surface *s = toplevel("subpixel");
	struct wp_viewport *vp = wp_viewporter_get_viewport(viewporter, s);
	wp_viewport_set_destination(vp, 40, 40);
	struct buffer a = make_buffer(10, 10, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	wl_surface_damage_buffer(s, 0, 0, 10, 10);
	commit_buffer(s, &a);
	struct buffer b = copy_buffer(&a, WL_SHM_FORMAT_XRGB8888);
	fill(&b, 2, 2, 1, 1, 0xffc02020);
	wl_surface_damage(s, 8, 8, 2, 2);
	commit_buffer(s, &b);
	expect(s, 3, 1, 1, "buffer", 0);
	struct buffer c = copy_buffer(&b, WL_SHM_FORMAT_XRGB8888);
	fill(&c, 5, 5, 1, 1, 0xffc02020);
	wl_surface_damage(s, 20, 20, 4, 4);
	commit_buffer(s, &c);
	expect(s, 4, 1, 0, "buffer", 0);
	roundtrip();

	/* Zero-size damage where the crop puts it inside buffer pixel 0, 0. */
	struct wl_surface *z = toplevel("zero-damage");
	vp = wp_viewporter_get_viewport(viewporter, z);
	wp_viewport_set_source(vp, wl_fixed_from_double(0.25), wl_fixed_from_double(0.25), wl_fixed_from_int(5), wl_fixed_from_int(5));
	wp_viewport_set_destination(vp, 10, 10);
	struct buffer za = make_buffer(10, 10, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	wl_surface_damage_buffer(z, 0, 0, 10, 10);
	commit_buffer(z, &za);
	struct buffer zb = copy_buffer(&za, WL_SHM_FORMAT_XRGB8888);
	fill(&zb, 0, 0, 1, 1, 0xffc02020);
	wl_surface_damage(z, 1, 1, 0, 0);
	commit_buffer(z, &zb);
	expect(z, 3, 1, 1, "buffer", 0);
	roundtrip();
}

static void nested_case(void)
{
	struct wl_surface *p = toplevel("nested");
	struct wl_surface *c = wl_compositor_create_surface(compositor);
	struct wl_subsurface *csub = wl_subcompositor_get_subsurface(subcompositor, c, p); /* sync */
	wl_subsurface_set_position(csub, 5, 5);
	struct wl_surface *g = wl_compositor_create_surface(compositor);
	struct wl_subsurface *gsub = wl_subcompositor_get_subsurface(subcompositor, g, c);
	wl_subsurface_set_desync(gsub); /* effectively synchronized: its parent is */
	wl_subsurface_set_position(gsub, 2, 2);
	struct buffer pa = make_buffer(40, 40, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	struct buffer ca = make_buffer(20, 20, WL_SHM_FORMAT_XRGB8888, 0xff606060);
	struct buffer ga = make_buffer(10, 10, WL_SHM_FORMAT_XRGB8888, 0xff404040);
	wl_surface_damage_buffer(g, 0, 0, 10, 10);
	commit_buffer(g, &ga);
	wl_surface_damage_buffer(c, 0, 0, 20, 20);
	commit_buffer(c, &ca);
	wl_surface_damage_buffer(p, 0, 0, 40, 40);
	commit_buffer(p, &pa);
	roundtrip();
	/* A change without damage, applied by the toplevel's commit (the middle surface has
	 * nothing cached). */
	struct buffer gb = copy_buffer(&ga, WL_SHM_FORMAT_XRGB8888);
	fill(&gb, 1, 1, 3, 3, 0xffc02020);
	commit_buffer(g, &gb);
	wl_surface_commit(p);
	expect(g, 2, 9, 9, "buffer", 0);
	roundtrip();
	/* Then a damaged change: a record of its own. */
	struct buffer gc = copy_buffer(&gb, WL_SHM_FORMAT_XRGB8888);
	fill(&gc, 6, 6, 2, 2, 0xff20c020);
	wl_surface_damage_buffer(g, 6, 6, 2, 2);
	commit_buffer(g, &gc);
	wl_surface_commit(p);
	expect(g, 3, 4, 0, "buffer", 0);
	roundtrip();
}

static void cached_write_case(void)
{
	struct wl_surface *p = toplevel("cached-write");
	struct wl_surface *s = wl_compositor_create_surface(compositor);
	wl_subcompositor_get_subsurface(subcompositor, s, p); /* sync */
	struct buffer pa = make_buffer(40, 40, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	struct buffer sa = make_buffer(20, 20, WL_SHM_FORMAT_XRGB8888, 0xff606060);
	wl_surface_damage_buffer(s, 0, 0, 20, 20);
	commit_buffer(s, &sa);
	wl_surface_damage_buffer(p, 0, 0, 40, 40);
	commit_buffer(p, &pa);
	roundtrip();
	struct buffer sb = copy_buffer(&sa, WL_SHM_FORMAT_XRGB8888);
	fill(&sb, 0, 0, 4, 4, 0xffc02020);
	wl_surface_damage_buffer(s, 0, 0, 4, 4);
	commit_buffer(s, &sb);
	roundtrip(); /* the commit has reached the compositor: it may read sb from now on */
	fill(&sb, 10, 10, 2, 2, 0xff20c020); /* a write into a committed buffer */
	wl_surface_commit(p);
	/* Applied with the write (20 changed, 4 of them under the damage), and held. */
	expect(s, 2, 20, 4, "buffer", 1);
	roundtrip();
}

/* ---- a screen check (by hand, with scripts/screenshot): what Weston shows after a change
 * of buffer transform without damage ---- */

static bool frame_done;
static void frame_callback_done(void *data, struct wl_callback *callback, uint32_t time)
{
	frame_done = true;
	wl_callback_destroy(callback);
}
static const struct wl_callback_listener frame_listener = { frame_callback_done };

/* Commits, then waits until the compositor has repainted (its frame callback). */
static void commit_and_wait(struct wl_surface *s)
{
	frame_done = false;
	wl_callback_add_listener(wl_surface_frame(s), &frame_listener, NULL);
	wl_surface_commit(s);
	while (!frame_done)
		if (wl_display_dispatch(display) < 0)
			exit(2);
}

/* Maps 200x200 (red top quarter, grey below), prints "shown 1" and waits for a line on
 * standard input; then commits the same buffer with buffer transform 180 and no damage,
 * prints "shown 2", waits for a line; then commits it again damaged whole, prints "shown 3",
 * waits for a line. On a compositor that repainted the surface at step 2 the red is at the
 * bottom there; one that repaints only damage still shows it at the top until step 3. */
static void probe_transform(void)
{
	struct wl_surface *s = toplevel("probe-transform");
	struct buffer b = make_buffer(200, 200, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	fill(&b, 0, 0, 200, 50, 0xffc02020);
	wl_surface_attach(s, b.buffer, 0, 0);
	wl_surface_damage_buffer(s, 0, 0, 200, 200);
	commit_and_wait(s);
	printf("shown 1\n");
	fflush(stdout);
	char line[16];
	if (!fgets(line, sizeof line, stdin))
		exit(2);
	wl_surface_set_buffer_transform(s, WL_OUTPUT_TRANSFORM_180);
	wl_surface_attach(s, b.buffer, 0, 0);
	commit_and_wait(s);
	printf("shown 2\n");
	fflush(stdout);
	if (!fgets(line, sizeof line, stdin))
		exit(2);
	/* The control: the same, damaged whole. */
	wl_surface_attach(s, b.buffer, 0, 0);
	wl_surface_damage(s, 0, 0, 200, 200);
	commit_and_wait(s);
	printf("shown 3\n");
	fflush(stdout);
	if (!fgets(line, sizeof line, stdin))
		exit(2);
}

/* Maps a 10x10 grey buffer shown at 200x200 (each buffer pixel 20x20 surface pixels), prints
 * "shown 1", waits for a line; then paints buffer pixel (2, 2) red and damages only surface
 * (40, 40, 10, 10), a quarter of that pixel's image; prints "shown 2", waits for a line. A
 * compositor repainting surface pixels shows a 10x10 red square there, the rest of the
 * pixel's 20x20 image stale. */
static void probe_subpixel(void)
{
	struct wl_surface *s = toplevel("probe-subpixel");
	struct wp_viewport *vp = wp_viewporter_get_viewport(viewporter, s);
	wp_viewport_set_destination(vp, 200, 200);
	struct buffer a = make_buffer(10, 10, WL_SHM_FORMAT_XRGB8888, 0xff808080);
	wl_surface_attach(s, a.buffer, 0, 0);
	wl_surface_damage_buffer(s, 0, 0, 10, 10);
	commit_and_wait(s);
	printf("shown 1\n");
	fflush(stdout);
	char line[16];
	if (!fgets(line, sizeof line, stdin))
		exit(2);
	struct buffer b = copy_buffer(&a, WL_SHM_FORMAT_XRGB8888);
	fill(&b, 2, 2, 1, 1, 0xffc02020);
	wl_surface_attach(s, b.buffer, 0, 0);
	wl_surface_damage(s, 40, 40, 10, 10);
	commit_and_wait(s);
	printf("shown 2\n");
	fflush(stdout);
	if (!fgets(line, sizeof line, stdin))
		exit(2);
}

int main(int argc, char **argv)
{
	bool all = argc < 2;
	display = connect_or_exit("surface-states");
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &viewporter_listener, NULL);
	wl_display_roundtrip(display);
	if (!subcompositor || !viewporter) {
		fprintf(stderr, "surface-states: missing globals\n");
		return 2;
	}
	for (int i = 1; i < argc || all; i++) {
		const char *what = all ? "all" : argv[i];
		if (all || strcmp(what, "matrix") == 0)
			matrix();
		if (all || strcmp(what, "cases") == 0) {
			invalid_damage();
			viewport_crop();
			geometry_cases();
			subpixel_cases();
			nested_case();
			cached_write_case();
		}
		if (!all && strcmp(what, "probe-transform") == 0)
			probe_transform();
		if (!all && strcmp(what, "probe-subpixel") == 0)
			probe_subpixel();
		if (all)
			break;
	}
	printf("done\n");
	fflush(stdout);
	wl_display_disconnect(display);
	return 0;
}
