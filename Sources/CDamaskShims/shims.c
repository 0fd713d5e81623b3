#include "CDamaskShims.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

const struct wl_interface *damask_wl_compositor_interface(void) { return &wl_compositor_interface; }
const struct wl_interface *damask_wl_subcompositor_interface(void) { return &wl_subcompositor_interface; }
const struct wl_interface *damask_wl_shm_interface(void) { return &wl_shm_interface; }
const struct wl_interface *damask_wl_seat_interface(void) { return &wl_seat_interface; }
const struct wl_interface *damask_wl_output_interface(void) { return &wl_output_interface; }
const struct wl_interface *damask_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
const struct wl_interface *damask_wp_viewporter_interface(void) { return &wp_viewporter_interface; }
const struct wl_interface *damask_wp_fractional_scale_manager_v1_interface(void) {
    return &wp_fractional_scale_manager_v1_interface;
}
const struct wl_interface *damask_wp_presentation_interface(void) { return &wp_presentation_interface; }
const struct wl_interface *damask_zxdg_decoration_manager_v1_interface(void) {
    return &zxdg_decoration_manager_v1_interface;
}
const struct wl_interface *damask_wl_data_device_manager_interface(void) { return &wl_data_device_manager_interface; }
const struct wl_interface *damask_zwp_primary_selection_device_manager_v1_interface(void) {
    return &zwp_primary_selection_device_manager_v1_interface;
}
const struct wl_interface *damask_zwp_text_input_manager_v3_interface(void) {
    return &zwp_text_input_manager_v3_interface;
}
const struct wl_interface *damask_zwp_text_input_manager_v1_interface(void) {
    return &zwp_text_input_manager_v1_interface;
}

int damask_shm_create(const char *name, size_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    int result;
    do {
        result = ftruncate(fd, (off_t)size);
    } while (result < 0 && errno == EINTR);
    if (result < 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char last_log[1024];

static void capture_log(const char *format, va_list args) {
    pthread_mutex_lock(&log_lock);
    vsnprintf(last_log, sizeof last_log, format, args);
    size_t length = strlen(last_log);
    while (length > 0 && last_log[length - 1] == '\n') last_log[--length] = '\0';
    pthread_mutex_unlock(&log_lock);
}

void damask_wayland_capture_log(void) { wl_log_set_handler_client(capture_log); }

void damask_wayland_clear_log(void) {
    pthread_mutex_lock(&log_lock);
    last_log[0] = '\0';
    pthread_mutex_unlock(&log_lock);
}

size_t damask_wayland_last_log(char *buffer, size_t capacity) {
    if (capacity == 0) return 0;
    pthread_mutex_lock(&log_lock);
    size_t length = strnlen(last_log, capacity - 1);
    memcpy(buffer, last_log, length);
    buffer[length] = '\0';
    pthread_mutex_unlock(&log_lock);
    return length;
}

// MARK: - Main dispatch queue

// Declared by libdispatch's private headers only (dispatch/private.h); the signatures are
// those of its Linux build, where a run-loop handle is an eventfd.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

int damask_main_queue_descriptor(void) {
    return _dispatch_get_main_queue_handle_4CF();
}

void damask_main_queue_drain(void) {
    int descriptor = _dispatch_get_main_queue_handle_4CF();
    uint64_t count = 0;
    // Non-blocking whatever the descriptor's flags: poll first, read only when readable.
    struct pollfd entry = { .fd = descriptor, .events = POLLIN, .revents = 0 };
    if (poll(&entry, 1, 0) > 0 && (entry.revents & POLLIN)) {
        ssize_t ignored = read(descriptor, &count, sizeof count);
        (void)ignored;
    }
    _dispatch_main_queue_callback_4CF(NULL);
}

int damask_set_malloc_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
