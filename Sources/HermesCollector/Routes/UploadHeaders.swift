import HermesWire
import Hummingbird

/// The Hermes headers of an upload request (specification §6), read and checked.
struct UploadHeaders: Sendable {
    /// `X-Hermes-Namespace`: every record must carry this `NAMESPACE`.
    var namespace: String
    /// `X-Hermes-Device-Id`, if sent.
    var deviceID: String?
    /// `X-Hermes-Batch-Id`, if sent.
    var batchID: String?
    /// `X-Hermes-Packet-Version`, or `nil` to tell by the body's magic bytes.
    var packetVersion: UInt8?
    /// The id (``AppKeyID``) of `X-Hermes-App-Key`, or of the ingest token that stood for it,
    /// stored with the records.
    var appKeyID: String?

    /// Reads the headers of a request.
    /// - Throws: ``CollectorError/Code/missingHeader`` without a namespace,
    ///   ``CollectorError/Code/invalidHeader`` for a packet version that is not a small number.
    init(_ fields: HTTPFields) throws(CollectorError) {
        guard let namespace = fields[.hermesNamespace], !namespace.isEmpty else {
            throw CollectorError(.missingHeader, "the \(HermesHeader.namespace) header is required")
        }
        self.namespace = namespace
        deviceID = fields[.hermesDeviceID]
        batchID = fields[.hermesBatchID]
        // The credential was checked before the route ran (AuthenticationMiddleware).
        appKeyID = (fields[.hermesAppKey] ?? fields.bearerToken.map(String.init)).map(AppKeyID.of)
        if let version = fields[.hermesPacketVersion] {
            guard let number = UInt8(version) else {
                throw CollectorError(.invalidHeader, "\(HermesHeader.packetVersion) must be 1 or 2")
            }
            packetVersion = number
        } else {
            packetVersion = nil
        }
    }
}
