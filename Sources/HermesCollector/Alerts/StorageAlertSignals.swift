import HermesWire

/// The ``AlertSignals`` of a collector: crash and record counts from its ``CollectorStorage``,
/// rejections and new crash groups from the functions given (none until given).
///
/// ```swift
/// let signals = StorageAlertSignals(storage: storage, newCrashGroups: { since in try await groups.firstSeen(since: since) })
/// ```
public struct StorageAlertSignals: AlertSignals {
    /// Counts the uploads rejected or refused since a time.
    public typealias RejectionCount = @Sendable (_ since: Int64) async throws -> Int
    /// Lists the crash groups first seen since a time.
    public typealias NewCrashGroups = @Sendable (_ since: Int64) async throws -> [AlertCrashGroup]

    private let storage: any CollectorStorage
    private let rejections: RejectionCount
    private let crashGroups: NewCrashGroups

    /// Creates the signals of `storage`.
    /// - Parameters:
    ///   - storage: the records counted.
    ///   - rejectionCount: counts rejected or refused uploads (default: always 0).
    ///   - newCrashGroups: lists new crash groups (default: none).
    public init(
        storage: any CollectorStorage, rejectionCount: @escaping RejectionCount = { _ in 0 }, newCrashGroups: @escaping NewCrashGroups = { _ in [] }
    ) {
        self.storage = storage
        rejections = rejectionCount
        crashGroups = newCrashGroups
    }

    public func crashCount(since: Int64) async throws -> Int {
        try await storage.count(EventQuery(namespace: RecordNamespace.monitoring, monitorType: MonitorType.appCrash, since: since))
    }

    public func recordCount(namespace: String, since: Int64) async throws -> Int {
        try await storage.count(EventQuery(namespace: namespace, since: since))
    }

    public func rejectionCount(since: Int64) async throws -> Int {
        try await rejections(since)
    }

    public func newCrashGroups(since: Int64) async throws -> [AlertCrashGroup] {
        try await crashGroups(since)
    }
}
