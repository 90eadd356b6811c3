/*
 * Turns TCP_QUICKACK off for a process on Linux: setsockopt(IPPROTO_TCP, TCP_QUICKACK, ...)
 * succeeds and does nothing. With it the SDK acknowledges as the kernel would by itself (up to
 * 40 ms late), which shows what `TCP_QUICKACK` before each read saves against a server that
 * writes an answer's head and body apart with Nagle's algorithm on (docs/benchmarks.md,
 * "Answers written in two parts"):
 *
 *   gcc -shared -fPIC -O2 scripts/no-quickack.c -o /tmp/no-quickack.so -ldl
 *   LD_PRELOAD=/tmp/no-quickack.so .build/release/hermes bench e2e --split-answers --records 20000 --runs 3
 *
 * The probe app that `hermes bench e2e` starts inherits LD_PRELOAD.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stddef.h>
#include <sys/socket.h>

int setsockopt(int socket, int level, int name, const void *value, socklen_t length) {
    static int (*next)(int, int, int, const void *, socklen_t);
    if (next == NULL) next = (int (*)(int, int, int, const void *, socklen_t))dlsym(RTLD_NEXT, "setsockopt");
    if (level == IPPROTO_TCP && name == TCP_QUICKACK) return 0;
    return next(socket, level, name, value, length);
}
