import Hummingbird
import NIOCore

extension Request {
    /// Checks `Authorization: Bearer <token>` against the tokens `allowed` for `scope` (each
    /// compared in constant time).
    /// - Throws: ``CollectorError/Code/unauthorized`` otherwise.
    func requireBearer(_ allowed: [String], scope: TokenScope) throws(CollectorError) {
        let prefix = "Bearer "
        if let authorization = headers[.authorization], authorization.hasPrefix(prefix) {
            let given = authorization.utf8.dropFirst(prefix.utf8.count)
            if allowed.contains(where: { SecretToken.equal(given, $0.utf8) }) { return }
        }
        throw CollectorError(.unauthorized, "this endpoint needs a token with the \(scope.rawValue) scope: Authorization: Bearer <token>")
    }

    /// Checks the `X-Hermes-App-Key` header against the known app keys.
    /// - Throws: ``CollectorError/Code/unauthorized`` when the header is missing or the key unknown.
    /// - Returns: the key.
    @discardableResult
    func requireAppKey(in appKeys: Set<String>) throws(CollectorError) -> String {
        guard let key = headers[.hermesAppKey], appKeys.contains(key) else {
            throw CollectorError(.unauthorized, "uploads need a known app key in the X-Hermes-App-Key header")
        }
        return key
    }

    /// The whole body, refused early when `Content-Length` says it is too large and while reading
    /// as soon as it grows past `limit`.
    /// - Throws: ``CollectorError/Code/bodyTooLarge`` past `limit` bytes; the connection's error if reading fails.
    /// The bytes reading the body may hold: its `Content-Length`, or `limit` when it has none
    /// (chunked) or declares more (refused by ``bodyBytes(upTo:)``).
    func bodyReservation(upTo limit: Int) -> Int {
        min(headers[.contentLength].flatMap(Int.init) ?? limit, limit)
    }

    func bodyBytes(upTo limit: Int) async throws -> [UInt8] {
        let tooLarge = CollectorError(.bodyTooLarge, "the request body is larger than \(limit) bytes; send smaller batches")
        if let length = headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge }
        do {
            var buffer = try await body.collect(upTo: limit)
            return buffer.readBytes(length: buffer.readableBytes) ?? []
        } catch is NIOTooManyBytesError {
            throw tooLarge
        }
    }
}
