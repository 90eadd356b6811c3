import Foundation

/// Writes a ``TransportRequest`` as HTTP/1.1 bytes: request line, `Host`, `Content-Length`
/// (whenever there is a body, or the method is `POST` or `PUT`), the request's own fields, then
/// the body. The connection stays open for the next request.
///
/// The bytes are appended straight into one array sized for the whole message: the URL's path
/// and query are read as they are stored (no `URLComponents`, which parses the URL again), and
/// the head is never built as a `String` first.
enum HTTPRequestEncoder {
    /// Fields the encoder writes itself; a request's own are refused.
    static let framingFields: Set<String> = ["host", "content-length", "transfer-encoding", "connection"]

    /// The request's bytes.
    /// - Throws: ``SocketTransportError/Code/invalidRequest`` for a field that HTTP cannot carry
    ///   (a line break or a control character in it, a name that is not a token) or that the
    ///   encoder writes itself.
    static func encode(_ request: TransportRequest, host: String, port: Int) throws(SocketTransportError) -> [UInt8] {
        guard isToken(request.method) else { throw SocketTransportError(.invalidRequest, "the method is not an HTTP token") }
        let fields = request.headers.sorted { $0.key < $1.key }
        for (name, value) in fields {
            guard isToken(name), !framingFields.contains(name.lowercased()) else {
                throw SocketTransportError(.invalidRequest, "the header field name \(name) cannot be sent")
            }
            guard value.utf8.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
                throw SocketTransportError(.invalidRequest, "the value of header field \(name) holds a control character")
            }
        }
        let path = request.url.path(percentEncoded: true)
        let query = request.url.query(percentEncoded: true)
        var bytes: [UInt8] = []
        // The fixed text (`HTTP/1.1`, `Host`, `Content-Length`, the port, brackets, line ends) is
        // under 96 bytes; the rest is counted.
        let variable = request.method.utf8.count + path.utf8.count + (query?.utf8.count ?? 0) + host.utf8.count + request.body.count
        bytes.reserveCapacity(96 + variable + fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 4 })
        bytes += request.method.utf8
        bytes.append(UInt8(ascii: " "))
        if path.isEmpty { bytes.append(UInt8(ascii: "/")) } else { bytes += path.utf8 }
        if let query {
            bytes.append(UInt8(ascii: "?"))
            bytes += query.utf8
        }
        bytes += " HTTP/1.1\r\nHost: ".utf8
        if host.utf8.contains(UInt8(ascii: ":")) {
            bytes.append(UInt8(ascii: "["))
            bytes += host.utf8
            bytes.append(UInt8(ascii: "]"))
        } else {
            bytes += host.utf8
        }
        if port != 80 {
            bytes.append(UInt8(ascii: ":"))
            bytes += String(port).utf8
        }
        bytes += "\r\n".utf8
        if !request.body.isEmpty || request.method == "POST" || request.method == "PUT" {
            bytes += "Content-Length: ".utf8
            bytes += String(request.body.count).utf8
            bytes += "\r\n".utf8
        }
        for (name, value) in fields {
            bytes += name.utf8
            bytes += ": ".utf8
            bytes += value.utf8
            bytes += "\r\n".utf8
        }
        bytes += "\r\n".utf8
        bytes += request.body
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
