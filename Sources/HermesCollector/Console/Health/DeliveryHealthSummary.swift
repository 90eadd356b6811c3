import HermesWire

/// What the SDKs report of their own delivery (`sdkHealth` records in `hermes`), from the rollups
/// kept at ingest: how many reports, records lost on devices by reason and app version, and the
/// records waiting on the devices that reported.
struct DeliveryHealthSummary {
    /// How many `sdkHealth` records arrived.
    let reports: Int64
    let losses: [DeliveryLoss]
    let queued: QueuedOnDevices

    /// The figures as the console's overview API sends them: losses the largest first.
    var json: JSONValue {
        let rows = losses.sorted { ($0.lost, $1.reason, $1.appVersion) > ($1.lost, $0.reason, $0.appVersion) }.map { loss -> JSONValue in
            ["reason": .string(loss.reason), "appVersion": .string(loss.appVersion), "lost": .int(loss.lost)]
        }
        return [
            "reports": .int(reports), "lost": .array(rows), "devices": .int(queued.devices), "queued": .int(queued.records),
        ]
    }
}
