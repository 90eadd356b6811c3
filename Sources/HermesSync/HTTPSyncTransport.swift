public import Foundation
public import HermesTransport
import HermesWire

/// Sends sync requests to a collector's `POST /v1/sync` over a Hermes `Transport`, gzipped both
/// ways (`SyncCompression`).
///
/// The default, `PlatformTransport`, is the one the reporting SDK uses: `URLSession` on
/// Apple platforms and for `https://`, and plain sockets for `http://` on Linux (no libcurl work per
/// request). Pass the transport the app already gives its `HermesClient` to share its settings.
///
/// ```swift
/// let transport = HTTPSyncTransport(baseURL: URL(string: "https://collector.example.com")!, appKey: "app-key")
/// ```
public struct HTTPSyncTransport: SyncTransport {
    /// A failed exchange: an answer with another status than 200, such as 401 for a credential
    /// that is missing, not the client id's, or revoked (when no answer came, the transport's
    /// own error is thrown).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The HTTP status.
        public var status: Int
        public var description: String { "the collector answered \(status)" }
    }

    let url: URL
    let appKey: String
    let credential: String?
    let transport: any Transport
    let timeout: Duration

    /// A transport to the collector at `baseURL`.
    /// - Parameters:
    ///   - baseURL: the collector's address, e.g. `https://collector.example.com`.
    ///   - appKey: sent as `X-Hermes-App-Key`.
    ///   - credential: the device's credential (`hsd_…`, issued by `hermes sync devices add` for
    ///     the client id the `SyncClient` is opened with), sent as `Authorization: Bearer`; `nil`
    ///     syncs without one, where the collector allows that.
    ///   - transport: how the HTTP request is sent.
    ///   - timeout: how long to wait for an answer.
    public init(
        baseURL: URL, appKey: String, credential: String? = nil, transport: any Transport = PlatformTransport(), timeout: Duration = .seconds(60)
    ) {
        url = baseURL.appendingPathComponent(String(HermesPath.sync.dropFirst()))
        self.appKey = appKey
        self.credential = credential
        self.transport = transport
        self.timeout = timeout
    }

    /// The most bytes an answer may inflate to: far above a page of missed change sets.
    static let maximumAnswerBytes = 256 << 20

    /// Sends `request` (gzipped above `SyncCompression.smallestCompressed` bytes, at the fast
    /// level that spares the battery), accepting a gzipped answer, and returns the answer's JSON.
    public func exchange(_ request: [UInt8]) async throws -> [UInt8] {
        var headers = ["Content-Type": "application/json", "Accept-Encoding": "gzip", HermesHeader.appKey: appKey]
        if let credential { headers["Authorization"] = "Bearer \(credential)" }
        var body = request
        if request.count > SyncCompression.smallestCompressed {
            body = try Gzip.compress(request, level: Gzip.fastLevel)
            headers["Content-Encoding"] = "gzip"
        }
        let response = try await transport.send(TransportRequest(method: "POST", url: url, headers: headers, body: body, timeout: timeout))
        guard response.status == 200 else { throw Failure(status: response.status) }
        // Told by its bytes, not its headers: a platform HTTP stack may have inflated it already.
        return SyncCompression.isGzip(response.body) ? try Gzip.decompress(response.body, limit: Self.maximumAnswerBytes) : response.body
    }
}
