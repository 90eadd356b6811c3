/// What alert rules measure: the counts and crash groups an ``AlertEvaluator`` reads at each
/// pass. Times are milliseconds since 1970.
///
/// Contract for implementers: each call answers for the whole deployment (every collector
/// sharing the store), never fails for an empty result, and errors say nothing of record
/// contents. ``StorageAlertSignals`` answers from a ``CollectorStorage``.
///
/// ```swift
/// struct FixedSignals: AlertSignals {
///     func crashCount(since: Int64) async throws -> Int { 12 }
///     func recordCount(namespace: String, since: Int64) async throws -> Int { 0 }
///     func rejectionCount(since: Int64) async throws -> Int { 0 }
///     func newCrashGroups(since: Int64) async throws -> [AlertCrashGroup] { [] }
/// }
/// ```
public protocol AlertSignals: Sendable {
    /// How many crash records (namespace `hermes`, type `appCrash`) were created at or after `since`.
    /// - Parameter since: the start of the window.
    func crashCount(since: Int64) async throws -> Int

    /// How many records of `namespace` were created at or after `since`.
    /// - Parameters:
    ///   - namespace: the namespace.
    ///   - since: the start of the window.
    func recordCount(namespace: String, since: Int64) async throws -> Int

    /// How many uploads were rejected or refused at or after `since`.
    /// - Parameter since: the start of the window.
    func rejectionCount(since: Int64) async throws -> Int

    /// The crash groups first seen at or after `since` (a group may be returned again by a later
    /// call whose window still covers it: it fires once anyway).
    /// - Parameter since: the start of the window.
    func newCrashGroups(since: Int64) async throws -> [AlertCrashGroup]
}
