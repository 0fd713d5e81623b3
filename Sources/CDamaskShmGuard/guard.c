#include "CDamaskShmGuard.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/// The calling thread's guarded read. SIGBUS from a memory access is delivered to the thread
/// that faulted, so the handler sees the read of the thread it interrupted. Initial-exec TLS
/// (this file is linked into the executable), safe to touch from a signal handler.
static __thread struct {
    const char *base;
    size_t length;
    volatile sig_atomic_t active;
    volatile sig_atomic_t fell_back;
} current_read;

static struct sigaction previous_action;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static void on_sigbus(int signal_number, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    const char *address = info ? (const char *)info->si_addr : NULL;
    if (current_read.active && address >= current_read.base && address < current_read.base + current_read.length) {
        // The raw system call: no sanitizer interceptor runs inside the handler.
        long mapped = syscall(SYS_mmap, current_read.base, current_read.length, PROT_READ,
                              MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0);
        if (mapped != -1) {
            current_read.fell_back = 1;
            errno = saved_errno;
            return;  // the faulting load is retried and reads zeros
        }
    }
    errno = saved_errno;
    // Not ours (or the fallback failed): behave as if this handler were not there.
    if (previous_action.sa_flags & SA_SIGINFO) {
        void (*handler)(int, siginfo_t *, void *) = previous_action.sa_sigaction;
        if ((void *)handler != (void *)SIG_DFL && (void *)handler != (void *)SIG_IGN) {
            handler(signal_number, info, context);
            return;
        }
    } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
        previous_action.sa_handler(signal_number);
        return;
    }
    // Default action: returning retries the access, which faults again and terminates.
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(SIGBUS, &fallback, NULL);
}

static void install_handler(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous_action);
}

void *damask_shm_guard_map(int fd, size_t length)
{
    if (length == 0) {
        errno = EINVAL;
        return NULL;
    }
    void *base = mmap(NULL, length, PROT_READ, MAP_SHARED, fd, 0);
    return base == MAP_FAILED ? NULL : base;
}

void damask_shm_guard_unmap(void *base, size_t length)
{
    if (base && length > 0)
        munmap(base, length);
}

void damask_shm_guard_begin(const void *base, size_t length)
{
    pthread_once(&install_once, install_handler);
    current_read.base = base;
    current_read.length = length;
    current_read.fell_back = 0;
    current_read.active = 1;
}

int damask_shm_guard_end(void)
{
    current_read.active = 0;
    return current_read.fell_back ? 1 : 0;
}
