import HermesWire

/// Counts failed console sign-ins per user name, and in total, per minute: past the limit, the
/// next attempts of that minute are refused before any password is checked.
///
/// Kept in the instance's memory: behind several instances the limit applies per instance.
/// The total cap (ten times the per-name limit) stops one client from trying many names.
final class SignInThrottle: Sendable {
    private struct Window {
        var minute: Int64 = 0
        var failures: [String: Int] = [:]
        var total = 0
    }

    private let limit: Int
    private let window = Locked(Window())

    /// - Parameter limit: failed attempts allowed per name and minute.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Refuses when `name`, or everyone together, failed too often in the minute of `now`.
    /// - Throws: ``CollectorError/Code/tooManyAttempts``.
    func check(_ name: String, now: Int64) throws(CollectorError) {
        let allowed = window.withLock { window in
            Self.roll(&window, to: now)
            return window.failures[name, default: 0] < limit && window.total < limit * 10
        }
        guard allowed else { throw CollectorError(.tooManyAttempts, "too many failed sign-ins; try again in a minute") }
    }

    /// Counts one failed attempt for `name`.
    func fail(_ name: String, now: Int64) {
        window.withLock { window in
            Self.roll(&window, to: now)
            window.failures[name, default: 0] += 1
            window.total += 1
        }
    }

    private static func roll(_ window: inout Window, to now: Int64) {
        let minute = now / 60_000
        guard minute != window.minute else { return }
        window = Window(minute: minute)
    }
}
