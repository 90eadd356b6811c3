import HTTPTypes
import Hummingbird
import NIOCore

extension Request {
    /// Checks `Authorization: Bearer <token>` against the tokens `allowed` for `scope` (each
    /// compared in constant time).
    /// - Throws: ``CollectorError/Code/unauthorized`` otherwise.
    func requireBearer(_ allowed: [String], scope: TokenScope) throws(CollectorError) {
        guard bearer(in: allowed) != nil else {
            throw CollectorError(.unauthorized, "this endpoint needs a token with the \(scope.rawValue) scope: Authorization: Bearer <token>")
        }
    }

    /// The `Authorization: Bearer` token when it is one of `allowed` (each compared in constant time).
    func bearer(in allowed: [String]) -> String? {
        guard let given = headers.bearerToken else { return nil }
        return allowed.first { SecretToken.equal(given.utf8, $0.utf8) }
    }

    /// The credential of an upload: the `X-Hermes-App-Key` header when it holds a known app key,
    /// or else an `Authorization: Bearer` token of `ingestTokens`.
    /// - Throws: ``CollectorError/Code/unauthorized`` when neither is there.
    /// - Returns: the key or the token.
    @discardableResult
    func requireAppKey(in appKeys: Set<String>, orIngestToken ingestTokens: [String]) throws(CollectorError) -> String {
        if let key = headers[.hermesAppKey], appKeys.contains(key) { return key }
        if headers[.hermesAppKey] == nil, let token = bearer(in: ingestTokens) { return token }
        throw CollectorError(.unauthorized, "uploads need a known app key in the X-Hermes-App-Key header")
    }

    /// The bytes reading the body may hold: its `Content-Length`, or `limit` when it has none
    /// (chunked), declares more (refused by ``bodyBytes(upTo:)``) or declares a negative length.
    func bodyReservation(upTo limit: Int) -> Int {
        guard let length = headers[.contentLength].flatMap(Int.init), length >= 0 else { return limit }
        return min(length, limit)
    }

    /// The whole body, refused early when `Content-Length` says it is too large and while reading
    /// as soon as it grows past `limit`.
    /// - Throws: ``CollectorError/Code/bodyTooLarge`` past `limit` bytes; the connection's error if reading fails.
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

extension HTTPFields {
    /// The token of `Authorization: Bearer <token>`, unchecked.
    var bearerToken: Substring? {
        let prefix = "Bearer "
        guard let authorization = self[.authorization], authorization.hasPrefix(prefix) else { return nil }
        return authorization.dropFirst(prefix.count)
    }
}
