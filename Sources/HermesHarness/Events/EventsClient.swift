package import Foundation
package import HermesTransport
package import HermesWire

/// Reads a collector's records over HTTP with its admin token: `GET /v1/events` pages and
/// `GET /v1/events/arrivals`, through the SDK's transport (plain sockets for `http://` on Linux).
package struct EventsClient: Sendable {
    /// The most records one page asks for.
    package static let pageLimit = 1_000

    package let baseURL: URL
    private let token: String
    private let transport: any Transport

    /// - Parameters:
    ///   - baseURL: the collector, `http://` or `https://`.
    ///   - token: the admin token.
    ///   - transport: how requests go; the platform's by default.
    package init(baseURL: URL, token: String, transport: any Transport = PlatformTransport()) {
        self.baseURL = baseURL
        self.token = token
        self.transport = transport
    }

    /// One page of records in `(createTime, id)` order, after `cursor`, and the next page's cursor.
    package func page(_ filter: EventFilter, cursor: String?, limit: Int) async throws -> (events: [JSONValue], next: String?) {
        let answer = try await get(
            HermesPath.events,
            filter.queryItems + [URLQueryItem(name: "limit", value: String(limit))] + (cursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? [])
        )
        return (Self.events(answer), answer["next"]?.stringValue)
    }

    /// The records that arrived at or after `receivedSince` (the collector's clock now when
    /// `nil`), oldest arrival first, and the collector's clock.
    package func arrivals(_ filter: EventFilter, receivedSince: Int64?, limit: Int) async throws -> (events: [JSONValue], now: Int64) {
        let since = receivedSince.map { [URLQueryItem(name: "receivedSince", value: String($0))] } ?? []
        let answer = try await get(HermesPath.events + "/arrivals", filter.queryItems + since + [URLQueryItem(name: "limit", value: String(limit))])
        return (Self.events(answer), answer["now"]?.intValue ?? 0)
    }

    /// The `events` array of an answer.
    private static func events(_ answer: JSONValue) -> [JSONValue] {
        guard case .array(let events)? = answer["events"] else { return [] }
        return events
    }

    /// The JSON answer to `GET path?items`.
    /// - Throws: ``RunFailure`` saying what the collector refused (its error code and reason)
    ///   or that it did not answer.
    private func get(_ path: String, _ items: [URLQueryItem]) async throws -> JSONValue {
        guard var components = URLComponents(url: baseURL.appendingPathComponent(String(path.dropFirst())), resolvingAgainstBaseURL: false)
        else { throw RunFailure("not a collector URL: \(baseURL)") }
        components.queryItems = items.isEmpty ? nil : items
        // `+` is a space in a query: encode it, for meta values and time zones.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else { throw RunFailure("not a collector URL: \(baseURL)") }
        let response: TransportResponse
        do {
            response = try await transport.send(TransportRequest(method: "GET", url: url, headers: ["Authorization": "Bearer \(token)"]))
        } catch {
            throw RunFailure("no answer from the collector at \(baseURL.absoluteString): \(error)")
        }
        guard response.status == 200 else {
            guard let refusal = CollectorRefusal(body: response.body) else {
                throw RunFailure("the collector answered HTTP \(response.status) to GET \(path)")
            }
            throw RunFailure("the collector refused GET \(path) (HTTP \(response.status), \(refusal.error)): \(refusal.reason)")
        }
        return try JSONValue(parsing: response.body)
    }
}
