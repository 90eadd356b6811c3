import Foundation

/// Writes a ``TransportRequest`` as HTTP/1.1 bytes: request line, `Host`, `Content-Length`
/// (whenever there is a body, or the method is `POST` or `PUT`), the request's own fields, then
/// the body. The connection stays open for the next request.
enum HTTPRequestEncoder {
    /// Fields the encoder writes itself; a request's own are refused.
    static let framingFields: Set<String> = ["host", "content-length", "transfer-encoding", "connection"]

    /// The request's bytes.
    /// - Throws: ``SocketTransportError/Code/invalidRequest`` for a field that HTTP cannot carry
    ///   (a line break or a control character in it, a name that is not a token) or that the
    ///   encoder writes itself.
    static func encode(_ request: TransportRequest, host: String, port: Int) throws(SocketTransportError) -> [UInt8] {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? ""
        let query = components?.percentEncodedQuery.map { "?\($0)" } ?? ""
        let authority = host.contains(":") ? "[\(host)]" : host
        guard isToken(request.method) else { throw SocketTransportError(.invalidRequest, "the method is not an HTTP token") }
        var head = "\(request.method) \(path.isEmpty ? "/" : path)\(query) HTTP/1.1\r\nHost: \(authority)\(port == 80 ? "" : ":\(port)")\r\n"
        if !request.body.isEmpty || request.method == "POST" || request.method == "PUT" {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            guard isToken(name), !framingFields.contains(name.lowercased()) else {
                throw SocketTransportError(.invalidRequest, "the header field name \(name) cannot be sent")
            }
            guard value.utf8.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
                throw SocketTransportError(.invalidRequest, "the value of header field \(name) holds a control character")
            }
            head += "\(name): \(value)\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        bytes.append(contentsOf: request.body)
        return bytes
    }

    /// RFC 9110 token characters: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
    }
}
