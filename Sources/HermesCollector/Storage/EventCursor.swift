import Foundation

/// Where a page of events ended: the last event's `createTime` and store id. The next page
/// starts strictly after it in `(createTime, id)` order, so records sharing a timestamp are
/// neither repeated nor skipped. Shown to clients as an opaque ``token``.
///
/// ```swift
/// var query = EventQuery(namespace: "shop", limit: 100)
/// let page = try await storage.events(query)
/// query.after = page.next
/// ```
public struct EventCursor: Sendable, Hashable {
    /// The last event's `CREATE_TIME`, in milliseconds.
    public var createTime: Int64
    /// The last event's id in the store.
    public var id: Int64

    /// Creates a cursor.
    public init(createTime: Int64, id: Int64) {
        self.createTime = createTime
        self.id = id
    }

    /// The cursor just after `event`.
    public init(after event: StoredEvent) {
        self.init(createTime: event.createTime, id: event.id)
    }

    /// The opaque text a client sends back as `cursor`: base64url, no padding.
    public var token: String {
        Data("1:\(createTime):\(id)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Reads a ``token``, or returns `nil` for text that is not one.
    public init?(token: String) {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard token.count <= 64, let data = Data(base64Encoded: base64) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "1", let createTime = Int64(parts[1]), let id = Int64(parts[2]) else { return nil }
        self.init(createTime: createTime, id: id)
    }
}
