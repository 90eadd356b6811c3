import HermesWire

/// What an upload's answer means for its batch (specification §6.4). No answer deletes a record it is not
/// about: only the records a 2xx answer lists as rejected leave the store undelivered, and only a 2xx
/// that proves a Hermes collector stored the batch deletes anything.
enum ResponseAction: Equatable, Sendable {
    /// 2xx that acknowledges the batch: stored, except the records listed (by the collector's per-record checks).
    case delivered(rejected: [UploadAnswer.Rejection])
    /// 2xx that proves nothing (no `X-Hermes-Batch-Ack` naming the batch, no answer body counting
    /// its records): a captive portal, a default backend, a wrong URL. Back to pending, back off.
    case unacknowledged
    /// Network error, 5xx, 408, 429 (and anything unexpected): back to pending, back off.
    case retry(retryAfter: Duration?)
    /// 413: the batch is too large for the server; halve it.
    case halve
    /// 401/403, 404/410, other 4xx: back to pending, pause the namespace's uploads.
    case pause(Refusal)

    /// A refusal that pauses a namespace: why, and what the collector said.
    struct Refusal: Equatable, Sendable {
        var reason: UploadBlock.Reason
        var status: Int
        /// The collector's error code, when its body had one.
        var code: String?
        var message: String

        /// A refusal of the packet as a whole is usually a key rotation: fetch the configuration.
        var refreshesConfiguration: Bool { reason == .packetRefused }
    }

    /// Reads the answer to the upload of one batch.
    /// - Parameters:
    ///   - response: the answer.
    ///   - batchID: the batch id the request carried (`X-Hermes-Batch-Id`).
    ///   - records: the records the batch carried.
    ///   - acceptsUnacknowledgedSuccess: any 2xx delivers, as from a server that answers a bare
    ///     200 (``HermesClient/Configuration/acceptsUnacknowledgedSuccess``).
    init(_ response: TransportResponse, batchID: String, records: Int, acceptsUnacknowledgedSuccess: Bool = false) {
        let status = response.status
        switch status {
        case 200..<300:
            let acknowledged =
                response.header(HermesHeader.batchAcknowledged) == batchID
                || UploadAnswer(strictBody: response.body)?.accounts(forRecords: records) == true
            self = acknowledged || acceptsUnacknowledgedSuccess ? .delivered(rejected: UploadAnswer(body: response.body).rejected) : .unacknowledged
        case 413:
            self = .halve
        case 408, 429, 500..<600:
            self = .retry(retryAfter: RetryPolicy.retryAfter(response.header("Retry-After")))
        case 400..<500:
            let refusal = CollectorRefusal(body: response.body)
            let reason: UploadBlock.Reason =
                switch status {
                case 401, 403: .unauthorized
                case 404, 410: .collectorNotFound
                case 400 where refusal?.scope == .packet: .packetRefused
                default: .requestRefused
                }
            let message = refusal.map(\.reason).flatMap { $0.isEmpty ? nil : $0 } ?? "HTTP \(status)"
            self = .pause(Refusal(reason: reason, status: status, code: refusal?.error, message: String(message.prefix(200))))
        default:
            self = .retry(retryAfter: nil)
        }
    }
}
