public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
import HermesWire

/// Sends sync requests to a collector's `POST /v1/sync` with `URLSession`.
///
/// ```swift
/// let transport = HTTPSyncTransport(baseURL: URL(string: "https://collector.example.com")!, appKey: "app-key")
/// ```
public struct HTTPSyncTransport: SyncTransport {
    /// A failed exchange: no answer, or an answer with another status than 200.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The HTTP status, when an answer came.
        public var status: Int?
        public var description: String { status.map { "the collector answered \($0)" } ?? "no answer" }
    }

    let url: URL
    let appKey: String
    let session: URLSession
    let timeout: TimeInterval

    /// A transport to the collector at `baseURL`.
    /// - Parameters:
    ///   - baseURL: the collector's address, e.g. `https://collector.example.com`.
    ///   - appKey: sent as `X-Hermes-App-Key`.
    ///   - session: the session to send with.
    ///   - timeout: seconds to wait for an answer.
    public init(baseURL: URL, appKey: String, session: URLSession = .shared, timeout: TimeInterval = 60) {
        url = baseURL.appendingPathComponent(String(HermesPath.sync.dropFirst()))
        self.appKey = appKey
        self.session = session
        self.timeout = timeout
    }

    public func exchange(_ request: [UInt8]) async throws -> [UInt8] {
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        urlRequest.setValue(appKey, forHTTPHeaderField: HermesHeader.appKey)
        let (data, response) = try await session.upload(for: urlRequest, from: Data(request))
        let status = (response as? HTTPURLResponse)?.statusCode
        guard status == 200 else { throw Failure(status: status) }
        return Array(data)
    }
}
