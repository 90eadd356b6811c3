import Foundation
import ServiceLifecycle

/// Runs `pass` with the time in milliseconds since 1970 at once and then every `interval`, until
/// graceful shutdown: the loop of the collector's housekeeping services.
func runPeriodically(every interval: Duration, _ pass: @escaping @Sendable (_ now: Int64) async -> Void) async {
    await cancelWhenGracefulShutdown {
        while !Task.isCancelled {
            await pass(Int64((Date().timeIntervalSince1970 * 1000).rounded()))
            try? await Task.sleep(for: interval)
        }
    }
    try? await gracefulShutdown()
}
