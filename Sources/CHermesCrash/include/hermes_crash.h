#ifndef HERMES_CRASH_H
#define HERMES_CRASH_H

/// Installs the fatal-signal handler (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP) once per
/// process. The crash report goes to `report_path`, opened now and kept open; the handler
/// writes it with write(2) only: the signal, its code, the faulting address, the time, the
/// thread and the crashing thread's return addresses (a frame-pointer walk from the signal's
/// context). The handlers installed before are saved and called after the report is written;
/// then the signal is raised again with its default action, so the process ends by it.
/// Also gives the calling thread an alternate signal stack.
/// Returns 0, or an errno value (EALREADY when a handler is installed already, ENOTSUP where
/// crash capture is not built).
int hermes_crash_install(const char *report_path);

/// Writes the loaded images (path, load bias, address range) to `images_path`, replacing it
/// atomically. Normal code only: not async-signal-safe. Returns 0 or an errno value.
int hermes_crash_write_images(const char *images_path);

/// Gives the calling thread an alternate signal stack (64 KiB) if it has none, so that a stack
/// overflow on it can still be reported, and records its stack's bounds (for 64 threads at
/// most), which bound the handler's stack walk on it. Returns 0 or an errno value.
int hermes_crash_prepare_thread(void);

/// Testing: the handler faults once, after the report's first lines, to prove a crash inside the
/// handler ends the process instead of looping.
void hermes_crash_testing_fault_in_handler(void);

/// Testing: installs a handler for the fatal signals that appends the line "chained <signal>" to
/// `marker_path` and returns, standing for a crash reporter installed before Hermes.
int hermes_crash_testing_install_marker_handler(const char *marker_path);

#endif
