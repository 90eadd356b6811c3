/// The monitoring types of the built-in `hermes` namespace's default configuration.
public enum MonitorType: Sendable {
    /// A crash from an earlier run, usually with a stack payload.
    public static let appCrash = "appCrash"
    /// A main-thread stall.
    public static let appLag = "appLag"
    /// A boot (launch) time measurement.
    public static let appBoot = "appBoot"
    /// A network request sample.
    public static let net = "net"
    /// A failed network request.
    public static let netError = "netError"
    /// A session began (``RecordField/sessionID`` names it).
    public static let sessionStart = "sessionStart"
    /// A session ended; its meta has the session's `durationMs`.
    public static let sessionEnd = "sessionEnd"
    /// `identify(userID:traits:)` was called; its meta holds the user's traits.
    public static let identify = "identify"
    /// The app's memory, sampled every period: resident and peak resident bytes.
    public static let appMemory = "appMemory"
    /// The app's CPU share over the period, with the thermal and power state where the
    /// platform tells them.
    public static let appCPU = "appCPU"
    /// The previous run ended without a clean shutdown and without a crash report (killed for
    /// memory, by a watchdog, or by the user on a hang), inferred at the next start.
    public static let appAbnormalExit = "appAbnormalExit"
    /// The SDK's delivery health: records lost on the device since the previous one, per
    /// reason, and the records waiting to upload (docs/monitoring.md, "Delivery health").
    public static let sdkHealth = "sdkHealth"
}
