package import Foundation

/// The filters of `hermes events`, as `GET /v1/events` and its export read them: every one
/// optional, times in ms since 1970.
package struct EventFilter: Sendable, Hashable {
    package var namespace: String?
    package var type: String?
    package var since: Int64?
    package var until: Int64?
    package var user: String?
    package var session: String?
    package var device: String?
    package var appVersion: String?
    /// `key=value` pairs, each one `meta` parameter.
    package var meta: [String] = []

    package init() {}

    /// The filters as query items, in a fixed order.
    package var queryItems: [URLQueryItem] {
        let named: [(String, String?)] = [
            ("namespace", namespace), ("type", type), ("since", since.map(String.init)), ("until", until.map(String.init)), ("user", user),
            ("session", session), ("device", device), ("appVersion", appVersion),
        ]
        return named.compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
            + meta.map { URLQueryItem(name: "meta", value: $0) }
    }

    /// A time as `--since` and `--until` take it: ms since 1970, or an ISO 8601 date and time
    /// (`2026-11-26T08:00:00Z`, fractions of a second allowed); `nil` for anything else.
    package static func time(_ text: String) -> Int64? {
        if let milliseconds = Int64(text) { return milliseconds }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }
}
