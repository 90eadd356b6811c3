import HermesWire

extension MonitorType {
    /// The `MONITOR_TYPE`s of crash rows in `namespace`, which go first in upload batches and
    /// are evicted last: `appCrash` (the `hermes` namespace), and `<namespace>-appCrash`, a
    /// business line's crash sent as type `appCrash` (`send(type: "appCrash", prefix: "JZ", …)`
    /// is stored as `JZ-appCrash`).
    static func crashTypes(in namespace: String) -> [String] {
        [appCrash, "\(namespace)-\(appCrash)"]
    }
}
