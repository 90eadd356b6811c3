import Foundation

/// Samples the process's resources every interval on the client's clock (``ResourceReader``),
/// and hands each sample, with the one before it and the time between, to its owner, which sends
/// `appMemory` and `appCPU` records and notes the sample in the run marker.
final class ResourceMonitor: Sendable {
    private let clock: MonotonicClock
    private let interval: Duration
    private let reader: ResourceReader
    private let background = TaskSet()

    init(interval: Duration, clock: MonotonicClock, reader: ResourceReader) {
        self.interval = max(interval, .seconds(1))
        self.clock = clock
        self.reader = reader
    }

    /// Takes a first sample at once, off the caller's thread, then one every interval until ``stop()``, each handed to
    /// `sampled` with the previous one and the period between them. Returns at once.
    func start(_ sampled: @escaping @Sendable (_ sample: ResourceSample, _ previous: ResourceSample, _ period: Duration) -> Void) {
        let origin = clock.now()
        background.spawn { [clock, interval, reader] in
            // Read here, not on the thread that starts the client.
            var previous = (sample: reader.sample(), at: origin)
            var deadline = origin
            while !Task.isCancelled {
                deadline += interval
                guard (try? await clock.sleep(until: deadline)) != nil else { return }
                let now = clock.now()
                let sample = reader.sample()
                sampled(sample, previous.sample, now - previous.at)
                previous = (sample, now)
            }
        }
    }

    /// Stops sampling and waits for a sample in progress.
    func stop() async {
        await background.cancelAll()
    }
}
