import HermesCollector
import HermesWire

/// Alert signals a test sets, remembering the `since` of every question.
final class FakeAlertSignals: AlertSignals {
    struct Values: Sendable {
        var crashes = 0
        var records: [String: Int] = [:]
        var rejections = 0
        var groups: [AlertCrashGroup] = []
        var asked: [Int64] = []
    }

    private let values = Locked(Values())

    /// Changes the values.
    func set(_ change: (inout Values) -> Void) {
        values.withLock { change(&$0) }
    }

    /// The `since` of every question, in order.
    var asked: [Int64] { values.withLock { $0.asked } }

    private func answer<T>(since: Int64, _ value: (Values) -> T) -> T {
        values.withLock { values in
            values.asked.append(since)
            return value(values)
        }
    }

    func crashCount(since: Int64) async throws -> Int { answer(since: since) { $0.crashes } }
    func recordCount(namespace: String, since: Int64) async throws -> Int { answer(since: since) { $0.records[namespace] ?? 0 } }
    func rejectionCount(since: Int64) async throws -> Int { answer(since: since) { $0.rejections } }
    func newCrashGroups(since: Int64) async throws -> [AlertCrashGroup] { answer(since: since) { $0.groups } }
}
