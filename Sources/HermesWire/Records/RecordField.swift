/// The names of the common fields Hermes adds to every record's meta (specification §4).
///
/// The collector reads records by these names; they are part of the wire contract.
public enum RecordField: Sendable {
    /// A UUID per record; the collector stores each `(NAMESPACE, REPORT_ID)` once.
    public static let reportID = "REPORT_ID"
    /// Milliseconds since 1970 when the record was made.
    public static let createTime = "CREATE_TIME"
    /// The type, prefixed with the namespace for business records (`JZ-pay`).
    public static let monitorType = "MONITOR_TYPE"
    /// `true` for a business namespace's record, `false` for the `hermes` namespace.
    public static let isBusiness = "IS_BIZ"
    /// The namespace the record belongs to.
    public static let namespace = "NAMESPACE"
    /// The host app's name.
    public static let appName = "APP_NAME"
    /// The host app's version.
    public static let appVersion = "APP_VERSION"
    /// The host app's build number.
    public static let appBuild = "APP_BUILD"
    /// A UUID generated once per installation and persisted.
    public static let deviceID = "DEVICE_ID"
    /// The operating system's name.
    public static let osName = "OS_NAME"
    /// The operating system's version.
    public static let osVersion = "OS_VERSION"
    /// The device's model identifier.
    public static let deviceModel = "DEVICE_MODEL"
    /// The Hermes SDK's version.
    public static let sdkVersion = "SDK_VERSION"
    /// The app's user, set by `identify(userID:traits:)`; `null` until then and after `reset()`.
    public static let userID = "USER_ID"
    /// A UUID generated once per installation (and again by `reset()`) and persisted: the
    /// anonymous user before and after `identify`.
    public static let anonymousID = "ANON_ID"
    /// A UUID per session: a session starts at `start()` and again after the app spent longer
    /// than the session timeout in the background.
    public static let sessionID = "SESSION_ID"

    /// Every common field, in the order specification §4 lists them.
    public static let all: [String] = [
        reportID, createTime, monitorType, isBusiness, namespace, appName, appVersion, appBuild,
        deviceID, osName, osVersion, deviceModel, sdkVersion, userID, anonymousID, sessionID,
    ]
}
