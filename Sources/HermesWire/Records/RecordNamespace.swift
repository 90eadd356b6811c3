/// The one rule for a record's namespace and its stored type (`MONITOR_TYPE`), used by every
/// place that builds or matches one.
///
/// The built-in monitoring namespace, `hermes`, stores a type as it is (`appCrash`); every other
/// namespace is a business namespace and stores `<namespace>-<type>` (`JZ-pay`) with `IS_BIZ`
/// true. `send(type:prefix:meta:)` with the prefix `hermes` therefore sends to the monitoring
/// namespace, exactly as `send(type:meta:)` does.
///
/// ```swift
/// RecordNamespace.storedType("pay", in: "JZ")         // "JZ-pay"
/// RecordNamespace.storedType("appCrash", in: "hermes") // "appCrash"
/// ```
public enum RecordNamespace: Sendable {
    /// The built-in monitoring namespace.
    public static let monitoring = ConfigurationDocument.hermesNamespace

    /// Whether `namespace` is a business namespace: any but the monitoring one.
    public static func isBusiness(_ namespace: String) -> Bool {
        namespace != monitoring
    }

    /// The stored type of a record of `type` in `namespace`: `<namespace>-<type>` in a business
    /// namespace, `type` itself in the monitoring one.
    public static func storedType(_ type: String, in namespace: String) -> String {
        isBusiness(namespace) ? namespace + "-" + type : type
    }
}
