/// The HTTP header names of Hermes requests (specification §6), shared by the SDK and the collector.
public enum HermesHeader: Sendable {
    /// The namespace every record of the batch belongs to.
    public static let namespace = "X-Hermes-Namespace"
    /// The batch id, the same on every retry of the batch.
    public static let batchID = "X-Hermes-Batch-Id"
    /// The sending installation's `DEVICE_ID`, on uploads and configuration fetches (overrides
    /// by device and percentage).
    public static let deviceID = "X-Hermes-Device-Id"
    /// The app's version, on a configuration fetch (overrides by app version).
    public static let appVersion = "X-Hermes-App-Version"
    /// The app key the collector authenticates uploads with.
    public static let appKey = "X-Hermes-App-Key"
    /// The packet version of the body, `1` or `2`.
    public static let packetVersion = "X-Hermes-Packet-Version"
    /// On the collector's 200 answer to an upload: the batch id of the request, saying that a
    /// Hermes collector stored the batch (the records its answer does not list as rejected).
    /// A 2xx without it, or without an answer body whose counts cover the batch, proves nothing.
    public static let batchAcknowledged = "X-Hermes-Batch-Ack"
}

/// The collector's endpoint paths, shared by the SDK and the collector.
public enum HermesPath: Sendable {
    /// `GET`: the configuration document, with `ETag` and `If-None-Match` (304).
    public static let config = "/v1/config"
    /// `POST`: a meta packet.
    public static let uploadMeta = "/v1/upload/meta"
    /// `POST`: a payload packet.
    public static let uploadPayload = "/v1/upload/payload"
    /// `GET`: stored events, filtered by namespace, type and time.
    public static let events = "/v1/events"
    /// Record sync: a device's change sets in, its outcomes and missed change sets out.
    public static let sync = "/v1/sync"

    /// The upload path for a packet kind.
    public static func upload(_ kind: PacketKind) -> String {
        kind == .meta ? uploadMeta : uploadPayload
    }
}
