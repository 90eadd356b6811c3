/// The records waiting on devices, from each device's latest `sdkHealth` report
/// (``ConsoleStorage/queuedOnDevices(reportedSince:)``).
public struct QueuedOnDevices: Sendable, Hashable {
    /// The devices that reported.
    public var devices: Int64
    /// The sum of their latest queue depths.
    public var records: Int64

    /// Creates the figures.
    public init(devices: Int64, records: Int64) {
        self.devices = devices
        self.records = records
    }
}
