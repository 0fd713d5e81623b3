/*
 * A wl_shm client that draws a 1920x1080 window at the compositor's frame rate, for measuring
 * what damask-inspect costs (scripts/inspect-cost).
 *
 *   frame-load SECONDS square|full [WIDTH HEIGHT [frame|timer [COMMIT_LOG]]]
 *
 * Pacing "frame" (the default) draws at each frame callback. Pacing "timer" commits on a
 * 60 Hz clock of its own (a tick every 16.667 ms, absolute deadlines), whatever the
 * compositor's frame callbacks do, so that a compositor pacing slower than 60 Hz (headless
 * Weston 10) still receives 60 commits a second; a tick that finds no released buffer is
 * skipped (counted), one that comes more than a period late is counted late. With
 * COMMIT_LOG it writes one line per commit there: "commit N sent MS", MS the moment just
 * before the commit was flushed to the socket, on the clock of libwayland's WAYLAND_DEBUG timestamps
 * (CLOCK_REALTIME µs modulo 2^32, in ms), so scripts/inspect-cost can match each commit
 * with the moment the compositor dispatched it.
 *
 * Every frame callback it redraws a buffer (three in rotation, each used only once released)
 * and commits it with exact damage: "square" moves a 64x64 square (damage: its old and new
 * place), "full" changes every pixel (damage: the whole buffer). After each commit it sends
 * wl_display.sync and times the reply: the round trip of a commit, which an inspector in
 * between lengthens by what it adds per commit (both hops, plus its copy and comparison).
 * At the end it prints two lines:
 *   frames N fps F interval_ms median M p95 P max X roundtrip_us median M p95 P max X
 *   intervals_ms p5 A p25 B p75 C p99 D; <=20 ms K, 20-37 ms L, 37-54 ms M, >54 ms N
 * (the second: the distribution of frame-callback intervals, and how many intervals took one
 * 60 Hz frame, two, three, or more).
 * Timer pacing adds a third line:
 *   ticks T commits C skipped_no_buffer S late_ticks L
 * Exits 0, or 2 when it cannot connect or map.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include "inspect-client.h"

enum { BUFFERS = 4, FRAME_BUFFERS = 3, SQUARE = 64, MAX_SAMPLES = 100000 };

static bool frame_due = true;
static double intervals[MAX_SAMPLES], roundtrips[MAX_SAMPLES];
static int interval_count, roundtrip_count;
static double last_frame, sync_sent;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Now as libwayland's WAYLAND_DEBUG prints it: CLOCK_REALTIME in µs, modulo 2^32 (it keeps
 * the time in a 32-bit unsigned), printed as ms with three decimals. Wraps every 71.6 min. */
static double debug_clock_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint32_t us = (uint32_t)((uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u);
	return us / 1000.0;
}

static void frame_done(void *data, struct wl_callback *callback, uint32_t time)
{
	wl_callback_destroy(callback);
	double t = now();
	if (last_frame > 0 && interval_count < MAX_SAMPLES)
		intervals[interval_count++] = (t - last_frame) * 1e3;
	last_frame = t;
	frame_due = true;
}

static const struct wl_callback_listener frame_listener = { frame_done };

static void sync_done(void *data, struct wl_callback *callback, uint32_t serial)
{
	wl_callback_destroy(callback);
	if (roundtrip_count < MAX_SAMPLES)
		roundtrips[roundtrip_count++] = (now() - sync_sent) * 1e6;
}

static const struct wl_callback_listener sync_listener = { sync_done };

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

static int compare(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void stats(double *values, int count, double *median, double *p95, double *max)
{
	*median = *p95 = *max = 0;
	if (count == 0)
		return;
	qsort(values, count, sizeof *values, compare);
	*median = values[count / 2];
	*p95 = values[(int)(count * 0.95)];
	*max = values[count - 1];
}

static void fill_rect(uint32_t *pixels, int width, int x0, int y0, int w, int h, uint32_t color)
{
	for (int y = y0; y < y0 + h; y++)
		for (int x = x0; x < x0 + w; x++)
			pixels[y * width + x] = color;
}

int main(int argc, char **argv)
{
	if (argc < 3 || (strcmp(argv[2], "square") != 0 && strcmp(argv[2], "full") != 0) ||
	    (argc > 5 && strcmp(argv[5], "frame") != 0 && strcmp(argv[5], "timer") != 0)) {
		fprintf(stderr, "usage: frame-load SECONDS square|full [WIDTH HEIGHT [frame|timer [COMMIT_LOG]]]\n");
		return 2;
	}
	bool timer = argc > 5 && strcmp(argv[5], "timer") == 0;
	int buffer_count = timer ? BUFFERS : FRAME_BUFFERS;
	FILE *commit_log = NULL;
	if (argc > 6 && !(commit_log = fopen(argv[6], "w"))) {
		fprintf(stderr, "frame-load: cannot write %s\n", argv[6]);
		return 2;
	}
	double seconds = atof(argv[1]);
	bool full = strcmp(argv[2], "full") == 0;
	int width = argc > 4 ? atoi(argv[3]) : 1920, height = argc > 4 ? atoi(argv[4]) : 1080;
	if (seconds <= 0 || width < SQUARE * 2 || height < SQUARE * 2 || width > 8192 || height > 8192) {
		fprintf(stderr, "frame-load: bad arguments\n");
		return 2;
	}
	struct wl_display *display = connect_or_exit("frame-load");

	size_t size = (size_t)width * height * 4;
	int fd = memfd_create("frame-load", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, buffer_count * size) < 0)
		return 2;
	uint8_t *memory = mmap(NULL, buffer_count * size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (memory == MAP_FAILED)
		return 2;
	struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, buffer_count * size);
	struct buffer buffers[BUFFERS];
	for (int i = 0; i < buffer_count; i++) {
		buffers[i].buffer = wl_shm_pool_create_buffer(pool, i * size, width, height, width * 4,
							      WL_SHM_FORMAT_XRGB8888);
		buffers[i].pixels = (uint32_t *)(memory + i * size);
		buffers[i].busy = false;
		wl_buffer_add_listener(buffers[i].buffer, &buffer_listener, &buffers[i]);
	}

	struct wl_surface *surface = wl_compositor_create_surface(compositor);
	struct xdg_surface *xdg_surface = xdg_wm_base_get_xdg_surface(wm_base, surface);
	xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, NULL);
	struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg_surface);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
	xdg_toplevel_set_title(toplevel, "frame-load");
	wl_surface_commit(surface);
	while (!configured)
		if (wl_display_dispatch(display) < 0)
			return 2;

	double start = now();
	int frames = 0, old_x = 0, old_y = 0;
	int ticks = 0, skipped = 0, late = 0;
	const double period = 1.0 / 60.0;
	double deadline = start;
	while (now() - start < seconds) {
		struct buffer *b = NULL;
		if (timer) {
			/* Wait for the next tick, handling events meanwhile; then use a released
			 * buffer, or skip the tick when the compositor still holds all of them. */
			for (;;) {
				if (wl_display_dispatch_pending(display) < 0)
					return 2;
				double wait = deadline - now();
				if (wait <= 0)
					break;
				wl_display_flush(display);
				struct pollfd pfd = { wl_display_get_fd(display), POLLIN, 0 };
				if (poll(&pfd, 1, (int)(wait * 1000) + 1) > 0 && wl_display_dispatch(display) < 0)
					return 2;
			}
			ticks++;
			if (now() - deadline > period)
				late++;
			deadline += period;
			while (deadline < now() - period)
				deadline += period;
			for (int i = 0; i < buffer_count && !b; i++)
				if (!buffers[i].busy)
					b = &buffers[i];
			if (!b) {
				skipped++;
				continue;
			}
		} else {
			while (!frame_due)
				if (wl_display_dispatch(display) < 0)
					return 2;
			while (!b) {
				for (int i = 0; i < buffer_count && !b; i++)
					if (!buffers[i].busy)
						b = &buffers[i];
				if (!b && wl_display_dispatch(display) < 0)
					return 2;
			}
		}
		int x = (frames * 7) % (width - SQUARE), y = (frames * 3) % (height - SQUARE);
		if (full) {
			uint32_t color = 0xff000000 | (uint32_t)(frames * 0x010203 + 0x204060);
			for (size_t i = 0; i < (size_t)width * height; i++)
				b->pixels[i] = color;
		} else {
			for (size_t i = 0; i < (size_t)width * height; i++)
				b->pixels[i] = 0xff808080;
			fill_rect(b->pixels, width, x, y, SQUARE, SQUARE, 0xffc03020);
		}
		wl_surface_attach(surface, b->buffer, 0, 0);
		if (full || frames == 0) {
			wl_surface_damage_buffer(surface, 0, 0, width, height);
		} else {
			wl_surface_damage_buffer(surface, old_x, old_y, SQUARE, SQUARE);
			wl_surface_damage_buffer(surface, x, y, SQUARE, SQUARE);
		}
		old_x = x, old_y = y;
		struct wl_callback *callback = wl_surface_frame(surface);
		wl_callback_add_listener(callback, &frame_listener, NULL);
		b->busy = true;
		frame_due = false;
		wl_surface_commit(surface);
		struct wl_callback *sync = wl_display_sync(display);
		wl_callback_add_listener(sync, &sync_listener, NULL);
		sync_sent = now();
		/* Stamped before the flush: the compositor may dispatch the commit before the
		 * flush returns. */
		double sent = debug_clock_ms();
		wl_display_flush(display);
		if (commit_log)
			fprintf(commit_log, "commit %d sent %.3f\n", frames + 1, sent);
		frames++;
	}
	wl_display_roundtrip(display);
	double elapsed = now() - start;
	double im, ip, ix, rm, rp, rx;
	stats(intervals, interval_count, &im, &ip, &ix);
	int buckets[4] = { 0, 0, 0, 0 };
	for (int i = 0; i < interval_count; i++)
		buckets[intervals[i] <= 20 ? 0 : intervals[i] <= 37 ? 1 : intervals[i] <= 54 ? 2 : 3]++;
	stats(roundtrips, roundtrip_count, &rm, &rp, &rx);
	printf("frames %d fps %.1f interval_ms median %.1f p95 %.1f max %.1f roundtrip_us median %.0f p95 %.0f max %.0f\n",
	       frames, frames / elapsed, im, ip, ix, rm, rp, rx);
	if (interval_count > 0)
		printf("intervals_ms p5 %.1f p25 %.1f p75 %.1f p99 %.1f; <=20 ms %d, 20-37 ms %d, 37-54 ms %d, >54 ms %d\n",
		       intervals[(int)(interval_count * 0.05)], intervals[(int)(interval_count * 0.25)],
		       intervals[(int)(interval_count * 0.75)], intervals[(int)(interval_count * 0.99)],
		       buckets[0], buckets[1], buckets[2], buckets[3]);
	if (timer)
		printf("ticks %d commits %d skipped_no_buffer %d late_ticks %d\n", ticks, frames, skipped, late);
	fflush(stdout);
	if (commit_log)
		fclose(commit_log);
	wl_display_disconnect(display);
	return 0;
}
