#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A ``Transport`` over `URLSession` (FoundationNetworking on Linux): what ``PlatformTransport``, the
/// default, uses for `https://` and on Apple platforms.
public struct URLSessionTransport: Transport {
    private let session: URLSession

    /// Creates a transport over `session`; the default is an ephemeral session without caching.
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = Double(request.timeout.components.seconds) + Double(request.timeout.components.attoseconds) * 1e-18
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response): (Data, URLResponse)
        if request.body.isEmpty {
            (data, response) = try await session.data(for: urlRequest)
        } else {
            (data, response) = try await session.upload(for: urlRequest, from: Data(request.body))
        }
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: Array(data))
    }
}
