// Reading a Wayland client's shared memory without dying when the client shrinks it.
//
// A client owns its wl_shm pool file and may ftruncate it at any moment; reading a mapping of
// it past the file's new end raises SIGBUS. As libwayland-server does for compositors, a
// guarded read registers the mapping it is about to read; if SIGBUS hits inside it, the
// handler replaces the whole mapping with anonymous zero pages (MAP_FIXED), the faulting load
// is retried and reads zeros, and the end of the read reports that it happened. No long jump
// crosses the caller's frames, so the reader may be any code (Swift closures included).
#pragma once

#include <stddef.h>

/// Maps `length` bytes of `fd` read-only and shared. Returns the mapping, owned by the caller
/// (release it with `damask_shm_guard_unmap`), or NULL with errno set. `fd` stays the
/// caller's; the mapping does not need it open.
void *damask_shm_guard_map(int fd, size_t length);

/// Unmaps a mapping made by `damask_shm_guard_map` (also after a fallback replaced its pages).
void damask_shm_guard_unmap(void *base, size_t length);

/// Starts a guarded read of the mapping [base, base + length) on the calling thread (installs
/// the process's SIGBUS handler on first use; a SIGBUS anywhere else goes to the handler that
/// was installed before it, or kills the process as without it). One read per thread at a
/// time; end it with `damask_shm_guard_end` on the same thread before starting another.
void damask_shm_guard_begin(const void *base, size_t length);

/// Ends the calling thread's guarded read. Returns 1 when a SIGBUS hit the mapping during it
/// (the file was shorter than what was read: everything read may be zeros, and the mapping
/// now holds anonymous zero pages, so unmap it and map the file again before the next read),
/// 0 otherwise.
int damask_shm_guard_end(void);
