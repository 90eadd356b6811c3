import HermesWire

/// What the SDKs report of their own delivery (`sdkHealth` records in `hermes`): records lost
/// on devices by reason and app version, and each device's latest queue depth.
struct DeliveryHealthSummary {
    private var lost: [LossKey: Int64] = [:]
    private var latestQueue: [String: (time: Int64, depth: Int64)] = [:]
    private(set) var reports = 0

    private struct LossKey: Hashable {
        let reason: String
        let appVersion: String
    }

    /// Counts one health record.
    mutating func add(_ event: StoredEvent) {
        guard event.monitorType == MonitorType.sdkHealth else { return }
        reports += 1
        let version = event.meta["APP_VERSION"]?.stringValue ?? "unknown"
        for (reason, count) in event.meta["lost"]?.objectValue ?? [:] {
            guard let count = count.intValue, count > 0 else { continue }
            lost[LossKey(reason: reason, appVersion: version), default: 0] += count
        }
        let device = event.deviceID ?? event.meta["DEVICE_ID"]?.stringValue ?? "unknown"
        if let depth = event.meta["queueDepth"]?.intValue, event.createTime >= latestQueue[device]?.time ?? .min {
            latestQueue[device] = (event.createTime, depth)
        }
    }

    /// The figures as the console's overview API sends them.
    var json: JSONValue {
        let rows = lost.sorted { ($0.value, $1.key.reason) > ($1.value, $0.key.reason) }.map { entry -> JSONValue in
            ["reason": .string(entry.key.reason), "appVersion": .string(entry.key.appVersion), "lost": .int(entry.value)]
        }
        return [
            "reports": .int(Int64(reports)), "lost": .array(rows), "devices": .int(Int64(latestQueue.count)),
            "queued": .int(latestQueue.values.reduce(0) { $0 + $1.depth }),
        ]
    }
}
