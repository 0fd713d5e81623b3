/*
 * What every damask-inspect test client shares: the globals it binds and the listeners that
 * map one xdg toplevel (ping answered, configure acknowledged, toplevel events ignored).
 *
 * Each client is a single translation unit that includes this header once; the state below
 * is that program's, set on its main thread by wl_display_dispatch.
 */
#ifndef DAMASK_INSPECT_CLIENT_H
#define DAMASK_INSPECT_CLIENT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>
#include "xdg-shell-client-protocol.h"

static struct wl_compositor *compositor;
/* Bound when the compositor offers it; only sync-subsurface uses it. */
static struct wl_subcompositor *subcompositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm_base;
/* Set once the first xdg_surface.configure has been acknowledged. */
static bool configured;

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	if (strcmp(interface, "wl_compositor") == 0)
		compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, "wl_subcompositor") == 0)
		subcompositor = wl_registry_bind(registry, name, &wl_subcompositor_interface, 1);
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

/*
 * Connects to WAYLAND_DISPLAY, binds the globals above and answers pings. A client that
 * cannot connect, or finds wl_compositor, wl_shm or xdg_wm_base missing, says so on standard
 * error (prefixed with `name`) and exits with status 2. The caller owns the display.
 */
static struct wl_display *connect_or_exit(const char *name)
{
	struct wl_display *display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "%s: cannot connect\n", name);
		exit(2);
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, NULL);
	wl_display_roundtrip(display);
	if (!compositor || !shm || !wm_base) {
		fprintf(stderr, "%s: missing globals\n", name);
		exit(2);
	}
	xdg_wm_base_add_listener(wm_base, &wm_listener, NULL);
	return display;
}

#endif
