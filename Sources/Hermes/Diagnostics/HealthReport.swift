import HermesWire

/// One `sdkHealth` record in the making: the records lost since the previous health record that
/// was stored, the records waiting to upload, and the time since that record.
struct HealthReport: Sendable, Hashable {
    /// The ledger's losses per reason, over every namespace, when the report was drafted: all
    /// of them count as reported once the record is stored.
    var totals: [LossReason: Int]
    /// Records lost since the previous stored report, per reason; only reasons that lost any.
    var lost: [LossReason: Int]
    /// Rows in the store, pending or in flight; `nil` when the store could not be read.
    var queueDepth: Int?
    /// When the report was drafted, on the client's clock.
    var drafted: Duration
    /// Time since the previous stored report (the first: since the client was made).
    var period: Duration

    /// The sum of ``lost``.
    var lostTotal: Int { lost.values.reduce(0, +) }

    /// The record's fields: `lost` (reason → count), `lostTotal`, `queueDepth` when known, `periodMs`.
    var meta: [String: JSONValue] {
        var meta: [String: JSONValue] = [
            "lost": .object(Dictionary(uniqueKeysWithValues: lost.map { ($0.key.name, .int(Int64($0.value))) })),
            "lostTotal": .int(Int64(lostTotal)),
            "periodMs": .int(period.milliseconds),
        ]
        if let queueDepth { meta["queueDepth"] = .int(Int64(queueDepth)) }
        return meta
    }
}
