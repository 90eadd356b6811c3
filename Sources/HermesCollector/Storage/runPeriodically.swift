import ServiceLifecycle

/// Runs `pass` at once and then every `interval`, until graceful shutdown: the loop of the
/// collector's housekeeping services.
func runPeriodically(every interval: Duration, _ pass: @escaping @Sendable () async -> Void) async {
    await cancelWhenGracefulShutdown {
        while !Task.isCancelled {
            await pass()
            try? await Task.sleep(for: interval)
        }
    }
    try? await gracefulShutdown()
}

/// Runs `pass` with the time `wallClock` tells (milliseconds since 1970) at once and then every
/// `interval`, until graceful shutdown.
func runPeriodically(
    every interval: Duration, wallClock: @escaping @Sendable () -> Int64, _ pass: @escaping @Sendable (_ now: Int64) async -> Void
) async {
    await runPeriodically(every: interval) { await pass(wallClock()) }
}
