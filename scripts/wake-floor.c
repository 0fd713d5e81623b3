/*
 * What a wake-up costs on this machine, with nothing of a toolkit in it: the floor under a
 * client's wake-ups (docs/performance.md, "The wake-ups of a key").
 *
 *   gcc -O2 -o /tmp/wake-floor scripts/wake-floor.c
 *   taskset -c 0 /tmp/wake-floor WAKES EVICT_KIB TOUCHES STRIDE
 *
 * A child writes 24 bytes (a wl_keyboard.key event's size) to a Unix socket every 20 ms,
 * each time after writing one byte in every 64 of an EVICT_KIB KiB buffer (0: none), as a
 * compositor's repaint evicts the caches between two keys. The parent sleeps in poll on an
 * eventfd and the socket, as Damask's main loop does, reads the bytes with recvmsg, looks
 * again with a zero-timeout poll, then follows a chain of TOUCHES pointers laid STRIDE bytes
 * apart in a shuffled order: each load waits for the one before, as the fetch of a line of
 * code does (64: lines side by side; 4096: one line per page, so each also needs a page
 * walk). It prints the parent's CPU time per wake-up, from /proc/thread-self/schedstat
 * (taskset -c 0 keeps both processes on one CPU, as Weston and its client share one).
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The calling thread's CPU time so far, in nanoseconds. */
static unsigned long long thread_cpu_ns(void) {
    unsigned long long ns = 0;
    FILE *file = fopen("/proc/thread-self/schedstat", "r");
    if (!file || fscanf(file, "%llu", &ns) != 1) {
        fprintf(stderr, "wake-floor: cannot read /proc/thread-self/schedstat\n");
        exit(1);
    }
    fclose(file);
    return ns;
}

/* The child: one event every 20 ms for `count` wake-ups (and the one not counted), each
 * after dirtying `evict` bytes. */
static void send_events(int socket_fd, int count, size_t evict) {
    volatile char *buffer = evict ? calloc(1, evict) : NULL;
    char event[24] = {0};
    for (int index = 0; index <= count; index++) {
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
        for (size_t offset = 0; offset < evict; offset += 64) buffer[offset] += 1;
        if (send(socket_fd, event, sizeof event, 0) != (ssize_t)sizeof event) _exit(1);
    }
    _exit(0);
}

/* The head of a chain through `count` slots `stride` bytes apart, in a shuffled order. */
static char *make_chain(int count, size_t stride) {
    if (count == 0) return NULL;
    char *slots = aligned_alloc(4096, ((size_t)count * stride + 4095) / 4096 * 4096);
    int *order = malloc(sizeof(int) * (size_t)count);
    if (!slots || !order) exit(1);
    for (int index = 0; index < count; index++) order[index] = index;
    srand(1);
    for (int index = count - 1; index > 0; index--) {
        int other = rand() % (index + 1), kept = order[index];
        order[index] = order[other];
        order[other] = kept;
    }
    for (int index = 0; index < count; index++) {
        char **slot = (char **)(slots + (size_t)order[index] * stride);
        *slot = index + 1 < count ? slots + (size_t)order[index + 1] * stride : NULL;
    }
    char *head = slots + (size_t)order[0] * stride;
    free(order);
    return head;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: wake-floor WAKES EVICT_KIB TOUCHES STRIDE\n");
        return 2;
    }
    int wakes = atoi(argv[1]), touches = atoi(argv[3]);
    size_t evict = (size_t)atol(argv[2]) * 1024, stride = (size_t)atol(argv[4]);
    if (wakes <= 0 || touches < 0 || stride < sizeof(char *)) {
        fprintf(stderr, "wake-floor: WAKES > 0, TOUCHES >= 0 and STRIDE >= %zu\n", sizeof(char *));
        return 2;
    }
    int sockets[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sockets) != 0) return 1;
    pid_t child = fork();
    if (child < 0) return 1;
    if (child == 0) {
        close(sockets[0]);
        send_events(sockets[1], wakes, evict);
    }
    close(sockets[1]);
    char *chain = make_chain(touches, stride);
    int queue = eventfd(0, EFD_NONBLOCK);
    struct pollfd watched[2] = {{queue, POLLIN, 0}, {sockets[0], POLLIN, 0}};
    char bytes[4096];
    struct iovec vector = {bytes, sizeof bytes};
    struct msghdr message = {.msg_iov = &vector, .msg_iovlen = 1};
    /* The first event starts the count. */
    poll(watched, 2, -1);
    recvmsg(sockets[0], &message, MSG_DONTWAIT);
    unsigned long long start = thread_cpu_ns();
    for (int index = 0; index < wakes; index++) {
        poll(watched, 2, 0);
        poll(watched, 2, -1);
        recvmsg(sockets[0], &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
        char *slot = chain;
        while (slot) slot = *(char *volatile *)slot;  /* volatile: each load is made */
    }
    unsigned long long spent = thread_cpu_ns() - start;
    printf("%.1f us of CPU per wake-up (%d wake-ups, %d dependent loads %zu bytes apart)\n",
        spent / 1000.0 / wakes, wakes, touches, stride);
    waitpid(child, NULL, 0);
    return 0;
}
