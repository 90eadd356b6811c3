package import Clocks
package import Foundation
import HermesWire

/// What every test harness of the package shares: a temporary folder of its own (removed with
/// the environment), a test clock for timers, and a settable wall clock for ages. The SDK's,
/// the logging handler's and the loopback harnesses are built on it.
package final class TestEnvironment: Sendable {
    /// A folder no other test uses; removed when the environment is released.
    package let directory: URL
    /// The clock of timers: moves only when a test advances it.
    package let clock = TestClock<Duration>()
    private let time: Locked<Int64>

    /// Creates the environment; the folder is created by whoever first writes in it.
    /// - Parameters:
    ///   - prefix: the start of the folder's name, to tell the harnesses' folders apart.
    ///   - now: the wall clock's first reading, in milliseconds since 1970.
    package init(prefix: String, now: Int64 = 1_763_000_000_000) {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        time = Locked(now)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Milliseconds since 1970 on the wall clock.
    package var now: Int64 { time.withLock { $0 } }

    /// Moves the wall clock (record ages) without firing any timer.
    package func advanceWallClock(by milliseconds: Int64) {
        time.withLock { $0 += milliseconds }
    }
}
