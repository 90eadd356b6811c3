import ServiceLifecycle

/// Runs `pass` with the time `wallClock` tells (milliseconds since 1970) at once and then every
/// `interval`, until graceful shutdown: the loop of the collector's housekeeping services.
func runPeriodically(
    every interval: Duration, wallClock: @escaping @Sendable () -> Int64, _ pass: @escaping @Sendable (_ now: Int64) async -> Void
) async {
    await cancelWhenGracefulShutdown {
        while !Task.isCancelled {
            await pass(wallClock())
            try? await Task.sleep(for: interval)
        }
    }
    try? await gracefulShutdown()
}
