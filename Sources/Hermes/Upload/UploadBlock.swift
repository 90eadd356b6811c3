/// A namespace whose uploads are paused because the collector refused them for a reason a quick
/// retry will not fix: the app key (401, 403), the collector's URL (404, 410), or the packet as a
/// whole (a 400 about the packet: unknown key id, decryption, version; usually a key rotation).
///
/// Every record stays stored while a namespace is blocked (expiry and `maxCacheCount` still
/// apply). Automatic uploads wait for ``retryAt``; each refusal in a row doubles the wait, up to
/// an hour. A configuration refresh that brings a new document, or a restart, lifts the pause;
/// an explicit `upload()` tries once at any time. Each pause is logged once and counted in the
/// swift-metrics counter `hermes.uploads.paused` (dimensions `namespace`, `reason`).
///
/// ```swift
/// if let block = client.diagnostics().blocked["JZ"], block.reason == .unauthorized {
///     showAlert("Uploads for JZ are refused: check the app key (\(block.message))")
/// }
/// ```
public struct UploadBlock: Sendable, Hashable {
    /// Why a namespace's uploads are paused, as a value that can grow new cases.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The reason's name, as used in logs and metrics labels.
        public let name: String

        private init(_ name: String) { self.name = name }

        public var description: String { name }

        /// 401 or 403: the collector does not accept the app key.
        public static let unauthorized = Reason("unauthorized")
        /// 404 or 410: no collector at the namespace's URL (collector not found).
        public static let collectorNotFound = Reason("collector_not_found")
        /// 400 about the packet as a whole (unknown key id, decryption or authentication failed,
        /// unsupported version); Hermes also refreshes its configuration.
        public static let packetRefused = Reason("packet_refused")
        /// Any other 4xx about the request (a header, the method), or 413 for a single record.
        public static let requestRefused = Reason("request_refused")
    }

    /// Why the uploads are paused.
    public var reason: Reason
    /// The HTTP status of the last refusal.
    public var status: Int
    /// The collector's error code (the JSON body's `error`), when it sent one.
    public var code: String?
    /// The collector's reason (the JSON body's `reason`), or what the status means.
    public var message: String
    /// Refusals in a row, each answered with a pause twice as long.
    public var pauses: Int
    /// When the first refusal in a row came, in milliseconds since 1970.
    public var since: Int64
    /// When automatic uploads try again, in milliseconds since 1970.
    public var retryAt: Int64

    /// Creates a block.
    public init(reason: Reason, status: Int, code: String?, message: String, pauses: Int, since: Int64, retryAt: Int64) {
        self.reason = reason
        self.status = status
        self.code = code
        self.message = message
        self.pauses = pauses
        self.since = since
        self.retryAt = retryAt
    }
}
