// The fatal-signal handler of Hermes' crash capture. Everything reachable from `on_signal` is
// async-signal-safe: write(2), sigaction(2), raise(3), clock_gettime(2), syscall(2), nanosleep(2)
// and plain loads and stores; no allocation, no locks, no stdio. The report is plain text, one
// fact per line, symbolicated by the SDK at the next start.
#define _GNU_SOURCE
#include "hermes_crash.h"

#include <errno.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))

#include <fcntl.h>
#include <link.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

enum { SIGNAL_COUNT = 6, MAX_FRAMES = 128, ALT_STACK_BYTES = 64 * 1024, KNOWN_STACKS = 64 };
// On a thread whose stack bounds are not known, a frame record further than this above the
// crashing stack pointer ends the walk: a corrupt frame pointer must not send the walk across
// the address space.
static const uintptr_t MAX_STACK_SPAN = (uintptr_t)64 << 20;

// The stacks of the threads that installed the handler or called hermes_crash_prepare_thread,
// recorded in normal code and read by the handler without locks: a slot's bounds are written
// before its thread id is published (release), and read after it (acquire).
static struct known_stack {
    atomic_long thread;
    uintptr_t low, high;
} known_stacks[KNOWN_STACKS];

static const int fatal_signals[SIGNAL_COUNT] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
static struct sigaction previous_actions[SIGNAL_COUNT];
static atomic_int report_fd = -1;
static atomic_int installed = 0;
// The thread id of the thread inside the handler (0: none): a second entry on the same thread is
// a crash inside the handler; on another thread, a second crash while the first is written.
static atomic_long owner = 0;
static atomic_int fault_in_handler = 0;

// MARK: - Async-signal-safe output

static void put(int fd, const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(fd, text, length);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

static void put_unsigned(int fd, uintptr_t value, unsigned base) {
    char digits[2 + 2 * sizeof(uintptr_t) + 24];
    char *end = digits + sizeof(digits) - 1;
    char *cursor = end;
    *cursor = '\0';
    do {
        unsigned digit = (unsigned)(value % base);
        *--cursor = (char)(digit < 10 ? '0' + digit : 'a' + digit - 10);
        value /= base;
    } while (value != 0);
    if (base == 16) {
        *--cursor = 'x';
        *--cursor = '0';
    }
    put(fd, cursor);
}

static void put_field(int fd, const char *name, uintptr_t value, unsigned base) {
    put(fd, name);
    put(fd, " ");
    put_unsigned(fd, value, base);
    put(fd, "\n");
}

// MARK: - The handler

static int signal_index(int signal) {
    for (int index = 0; index < SIGNAL_COUNT; index++) {
        if (fatal_signals[index] == signal) return index;
    }
    return -1;
}

static void restore_defaults(void) {
    struct sigaction fallback;
    memset(&fallback, 0, sizeof(fallback));
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    for (int index = 0; index < SIGNAL_COUNT; index++) sigaction(fatal_signals[index], &fallback, NULL);
}

// The bounds of the crashing thread's stack: the recorded ones when they hold `sp` (a thread id
// can be reused by a later thread), else from `sp` up to MAX_STACK_SPAN.
static void stack_bounds(long thread, uintptr_t sp, uintptr_t *low, uintptr_t *high) {
    *low = sp;
    *high = sp + MAX_STACK_SPAN < sp ? UINTPTR_MAX : sp + MAX_STACK_SPAN;
    for (int index = 0; index < KNOWN_STACKS; index++) {
        struct known_stack *known = &known_stacks[index];
        if (atomic_load_explicit(&known->thread, memory_order_acquire) != thread) continue;
        if (known->low <= sp && sp < known->high) {
            *high = known->high;
        }
        return;
    }
}

static void write_frames(int fd, const ucontext_t *context, long thread) {
#if defined(__x86_64__)
    uintptr_t pc = (uintptr_t)context->uc_mcontext.gregs[REG_RIP];
    uintptr_t fp = (uintptr_t)context->uc_mcontext.gregs[REG_RBP];
    uintptr_t sp = (uintptr_t)context->uc_mcontext.gregs[REG_RSP];
#else
    uintptr_t pc = (uintptr_t)context->uc_mcontext.pc;
    uintptr_t fp = (uintptr_t)context->uc_mcontext.regs[29];
    uintptr_t sp = (uintptr_t)context->uc_mcontext.sp;
#endif
    put_field(fd, "frame", pc, 16);
    uintptr_t low, high;
    stack_bounds(thread, sp, &low, &high);
    // Each frame record is {caller's frame pointer, return address}; records lie higher on the
    // stack the further out the caller is.
    for (int depth = 1; depth < MAX_FRAMES; depth++) {
        if (fp == 0 || fp % sizeof(uintptr_t) != 0 || fp < low || fp > high - 2 * sizeof(uintptr_t)) return;
        const uintptr_t *record = (const uintptr_t *)fp;
        uintptr_t next = record[0];
        uintptr_t return_address = record[1];
        if (return_address == 0) return;
        put_field(fd, "frame", return_address, 16);
        if (next <= fp) return;
        fp = next;
    }
}

static void write_report(int fd, int signal, const siginfo_t *info, const ucontext_t *context, long thread) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    put(fd, "hermes-crash 1\n");
    put_field(fd, "signal", (uintptr_t)signal, 10);
    put(fd, info->si_code < 0 ? "code -" : "code ");
    put_unsigned(fd, (uintptr_t)(info->si_code < 0 ? -(long)info->si_code : info->si_code), 10);
    put(fd, "\n");
    put_field(fd, "address", (uintptr_t)info->si_addr, 16);
    put_field(fd, "time", (uintptr_t)now.tv_sec * 1000 + (uintptr_t)(now.tv_nsec / 1000000), 10);
    put_field(fd, "pid", (uintptr_t)getpid(), 10);
    put_field(fd, "thread", (uintptr_t)thread, 10);
    if (atomic_exchange(&fault_in_handler, 0)) *(volatile int *)(uintptr_t)8 = 1;
    if (context != NULL) write_frames(fd, context, thread);
    put(fd, "end\n");
}

static void chain(int signal, siginfo_t *info, void *context) {
    int index = signal_index(signal);
    if (index < 0) return;
    struct sigaction previous = previous_actions[index];
    sigaction(signal, &previous, NULL);
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction != NULL) previous.sa_sigaction(signal, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signal);
    }
}

static void on_signal(int signal, siginfo_t *info, void *context) {
    long thread = syscall(SYS_gettid);
    long expected = 0;
    if (!atomic_compare_exchange_strong(&owner, &expected, thread)) {
        if (expected == thread) {
            // A crash inside the handler: no second report, no loop; the faulting instruction
            // runs again on return and ends the process with the default action.
            restore_defaults();
            return;
        }
        // Another thread crashed while the first report is written: let it finish (it ends the
        // process); if it never does, die of this signal after two seconds.
        struct timespec pause = {0, 10 * 1000 * 1000};
        for (int attempt = 0; attempt < 200; attempt++) nanosleep(&pause, NULL);
        restore_defaults();
        raise(signal);
        return;
    }
    int fd = atomic_load(&report_fd);
    if (fd >= 0) write_report(fd, signal, info, (const ucontext_t *)context, thread);
    chain(signal, info, context);
    // The process ends by the original signal: raised now it stays pending (the signal is
    // blocked inside its handler) and is delivered, with the default action, on return.
    restore_defaults();
    raise(signal);
}

// MARK: - Installation (normal code)

static void remember_stack(void) {
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return;
    void *base = NULL;
    size_t size = 0;
    int found = pthread_attr_getstack(&attributes, &base, &size) == 0;
    pthread_attr_destroy(&attributes);
    if (!found || base == NULL) return;
    long thread = syscall(SYS_gettid);
    for (int index = 0; index < KNOWN_STACKS; index++) {
        struct known_stack *known = &known_stacks[index];
        long expected = 0;
        if (atomic_load_explicit(&known->thread, memory_order_acquire) == thread) return;
        // -1 reserves the slot while its bounds are written.
        if (!atomic_compare_exchange_strong(&known->thread, &expected, -1)) continue;
        known->low = (uintptr_t)base;
        known->high = (uintptr_t)base + size;
        atomic_store_explicit(&known->thread, thread, memory_order_release);
        return;
    }
}

int hermes_crash_prepare_thread(void) {
    remember_stack();
    stack_t current;
    if (sigaltstack(NULL, &current) != 0) return errno;
    if (!(current.ss_flags & SS_DISABLE) && current.ss_sp != NULL) return 0;
    void *memory = malloc(ALT_STACK_BYTES);
    if (memory == NULL) return ENOMEM;
    stack_t stack = {.ss_sp = memory, .ss_flags = 0, .ss_size = ALT_STACK_BYTES};
    if (sigaltstack(&stack, NULL) != 0) {
        int error = errno;
        free(memory);
        return error;
    }
    return 0;
}

int hermes_crash_install(const char *report_path) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&installed, &expected, 1)) return EALREADY;
    int fd = open(report_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) {
        int error = errno;
        atomic_store(&installed, 0);
        return error;
    }
    atomic_store(&report_fd, fd);
    hermes_crash_prepare_thread();
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = on_signal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int index = 0; index < SIGNAL_COUNT; index++) {
        sigaction(fatal_signals[index], &action, &previous_actions[index]);
    }
    return 0;
}

struct image_sink {
    FILE *file;
    int first;
};

static int write_image(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    struct image_sink *sink = context;
    uintptr_t low = UINTPTR_MAX, high = 0;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD) continue;
        uintptr_t start = (uintptr_t)info->dlpi_addr + (uintptr_t)header->p_vaddr;
        if (start < low) low = start;
        if (start + header->p_memsz > high) high = start + header->p_memsz;
    }
    const char *name = info->dlpi_name;
    char executable[PATH_MAX];
    if (sink->first && (name == NULL || name[0] == '\0')) {
        ssize_t length = readlink("/proc/self/exe", executable, sizeof(executable) - 1);
        executable[length > 0 ? length : 0] = '\0';
        name = executable;
    }
    sink->first = 0;
    if (low < high && name != NULL && name[0] != '\0') {
        fprintf(sink->file, "image 0x%lx 0x%lx 0x%lx %s\n", (unsigned long)low, (unsigned long)high,
                (unsigned long)info->dlpi_addr, name);
    }
    return 0;
}

int hermes_crash_write_images(const char *images_path) {
    char temporary[PATH_MAX];
    if (snprintf(temporary, sizeof(temporary), "%s.tmp", images_path) >= (int)sizeof(temporary)) return ENAMETOOLONG;
    FILE *file = fopen(temporary, "w");
    if (file == NULL) return errno;
    struct image_sink sink = {file, 1};
    dl_iterate_phdr(write_image, &sink);
    if (fclose(file) != 0) return errno;
    if (rename(temporary, images_path) != 0) return errno;
    return 0;
}

void hermes_crash_testing_fault_in_handler(void) {
    atomic_store(&fault_in_handler, 1);
}

static atomic_int marker_fd = -1;

static void on_marker_signal(int signal) {
    int fd = atomic_load(&marker_fd);
    if (fd < 0) return;
    put(fd, "chained ");
    put_unsigned(fd, (uintptr_t)signal, 10);
    put(fd, "\n");
}

int hermes_crash_testing_install_marker_handler(const char *marker_path) {
    int fd = open(marker_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return errno;
    atomic_store(&marker_fd, fd);
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = on_marker_signal;
    sigemptyset(&action.sa_mask);
    for (int index = 0; index < SIGNAL_COUNT; index++) sigaction(fatal_signals[index], &action, NULL);
    return 0;
}

#else

// Crash capture is built for Linux on x86-64 and arm64; elsewhere installing reports ENOTSUP.
int hermes_crash_install(const char *report_path) { (void)report_path; return ENOTSUP; }
int hermes_crash_write_images(const char *images_path) { (void)images_path; return ENOTSUP; }
int hermes_crash_prepare_thread(void) { return ENOTSUP; }
void hermes_crash_testing_fault_in_handler(void) {}
int hermes_crash_testing_install_marker_handler(const char *marker_path) { (void)marker_path; return ENOTSUP; }

#endif
