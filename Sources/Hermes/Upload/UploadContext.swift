import Foundation
import HermesWire
import Logging

/// What every upload round needs from its client.
struct UploadContext: Sendable {
    let writer: StoreWriter
    let ledger: LossLedger
    let transport: any Transport
    let wireFormat: WireFormat
    let appKey: String
    let deviceID: String
    let wallClock: @Sendable () -> Int64
    let logger: Logger
    let requestTimeout: Duration
    /// Whether uploads may run (consent granted); read by each round's gates.
    let uploadsAllowed: @Sendable () -> Bool
    /// Whether any 2xx delivers a batch (``HermesClient/Configuration/acceptsUnacknowledgedSuccess``).
    let acceptsUnacknowledgedSuccess: Bool
    /// Where 2xx answers that proved nothing are counted and logged.
    let unacknowledged: UnacknowledgedAnswers

    /// Whether a delivered record with a payload also goes on the meta channel (the v1 wire
    /// format, for a design-compatible server that reads the meta channel for alerts).
    var copiesPayloadMeta: Bool {
        if case .v1 = wireFormat { return true }
        return false
    }
}
