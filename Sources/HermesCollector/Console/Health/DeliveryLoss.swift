/// Records lost on devices, as the SDKs reported them, for one app version and reason: a row of
/// the delivery health rollup the overview reads (``ConsoleStorage/deliveryLosses(sinceHour:)``).
public struct DeliveryLoss: Sendable, Hashable {
    /// The reporting app's version, `unknown` without one.
    public var appVersion: String
    /// Why the records were lost (the SDK's loss ledger's reason).
    public var reason: String
    /// How many records.
    public var lost: Int64

    /// Creates a row.
    public init(appVersion: String, reason: String, lost: Int64) {
        self.appVersion = appVersion
        self.reason = reason
        self.lost = lost
    }
}
