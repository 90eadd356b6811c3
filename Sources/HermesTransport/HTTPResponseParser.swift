/// Reads one HTTP/1.x answer from the bytes a connection received, with no I/O of its own:
/// the status line and header (at most `maxHeaderBytes`), interim `1xx` answers skipped, then
/// the body framed by `Transfer-Encoding: chunked`, `Content-Length`, or the connection's end
/// (at most `maxBodyBytes`).
struct HTTPResponseParser {
    /// An answer read in full.
    struct Parsed {
        var response: TransportResponse
        /// The connection can carry the next request: HTTP/1.1 without `Connection: close` (or
        /// 1.0 with `keep-alive`), the body framed by its length, and nothing after the answer.
        var reusable: Bool
    }

    /// How the body ends.
    private enum Framing: Equatable {
        case empty
        case length(Int)
        case chunked
        case untilClose
    }

    private struct Head {
        var status: Int
        var headers: [String: String]
        var keepAlive: Bool
        var framing: Framing
        /// Where the body starts in the buffer.
        var bodyStart: Int
    }

    let maxHeaderBytes: Int
    let maxBodyBytes: Int
    /// A `HEAD` request's answer has no body whatever its header says.
    let expectsBody: Bool

    private var head: Head?
    /// How far the search for the header's end got.
    private var scanned = 0

    init(maxHeaderBytes: Int, maxBodyBytes: Int, expectsBody: Bool = true) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.expectsBody = expectsBody
    }

    /// Reads what `buffer` holds so far (interim answers are removed from it).
    /// - Parameter atEnd: the connection has ended: nothing more will arrive.
    /// - Returns: the answer, or `nil` while more bytes are needed.
    /// - Throws: ``SocketTransportError`` `.responseTooLarge` past a bound, `.invalidResponse`
    ///   for what is not HTTP/1.x, `.connectionClosed` when the connection ended too early.
    mutating func parse(_ buffer: inout [UInt8], atEnd: Bool) throws(SocketTransportError) -> Parsed? {
        while head == nil {
            guard let end = Self.headerEnd(in: buffer, from: max(0, scanned - 3)) else {
                scanned = buffer.count
                if buffer.count > maxHeaderBytes {
                    throw SocketTransportError(.responseTooLarge, "the answer's header is larger than \(maxHeaderBytes) bytes")
                }
                if atEnd { throw SocketTransportError(.connectionClosed, "the server closed the connection before its answer's header ended") }
                return nil
            }
            guard end <= maxHeaderBytes else {
                throw SocketTransportError(.responseTooLarge, "the answer's header is larger than \(maxHeaderBytes) bytes")
            }
            let parsed = try Self.parseHead(buffer[..<(end - 4)], bodyStart: end, expectsBody: expectsBody)
            if (100..<200).contains(parsed.status), parsed.status != 101 {
                // An interim answer (100 Continue, 103 Early Hints): the real one follows.
                buffer.removeSubrange(..<end)
                scanned = 0
                continue
            }
            head = parsed
        }
        guard let head else { return nil }
        let available = buffer.count - head.bodyStart
        switch head.framing {
        case .empty:
            return finish(head, body: [], reusable: available == 0)
        case .length(let length):
            guard length <= maxBodyBytes else {
                throw SocketTransportError(.responseTooLarge, "the answer's body of \(length) bytes is larger than \(maxBodyBytes) bytes")
            }
            if available >= length {
                return finish(head, body: Array(buffer[head.bodyStart..<(head.bodyStart + length)]), reusable: available == length)
            }
        case .chunked:
            if let decoded = try Self.dechunk(buffer[head.bodyStart...], limit: maxBodyBytes) {
                return finish(head, body: decoded.body, reusable: decoded.used == available)
            }
        case .untilClose:
            guard available <= maxBodyBytes else {
                throw SocketTransportError(.responseTooLarge, "the answer's body is larger than \(maxBodyBytes) bytes")
            }
            if atEnd {
                return Parsed(
                    response: TransportResponse(status: head.status, headers: head.headers, body: Array(buffer[head.bodyStart...])), reusable: false)
            }
        }
        if atEnd { throw SocketTransportError(.connectionClosed, "the server closed the connection before its answer's body ended") }
        return nil
    }

    private func finish(_ head: Head, body: [UInt8], reusable: Bool) -> Parsed {
        Parsed(response: TransportResponse(status: head.status, headers: head.headers, body: body), reusable: reusable && head.keepAlive)
    }

    /// The index just past the first `\r\n\r\n` at or after `start`.
    private static func headerEnd(in buffer: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= 4 else { return nil }
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index + 4 }
            index += 1
        }
        return nil
    }

    private static func parseHead(_ bytes: ArraySlice<UInt8>, bodyStart: Int, expectsBody: Bool) throws(SocketTransportError) -> Head {
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
        }
        let statusLine = lines.first ?? ""
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]), status >= 100 else {
            throw SocketTransportError(.invalidResponse, "the answer does not start with an HTTP/1.x status line")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw SocketTransportError(.invalidResponse, "the answer has a header line without a name")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces()
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        let connection = Set((headers["connection"] ?? "").lowercased().split(separator: ",").map { $0.trimmingSpaces() })
        let keepAlive = parts[0] == "HTTP/1.0" ? connection.contains("keep-alive") : !connection.contains("close")
        let framing: Framing
        if !expectsBody || status == 204 || status == 304 {
            framing = .empty
        } else if let encoding = headers["transfer-encoding"] {
            guard encoding.lowercased().split(separator: ",").last?.trimmingSpaces() == "chunked" else {
                throw SocketTransportError(.invalidResponse, "the answer's transfer encoding \(encoding) is not supported")
            }
            framing = .chunked
        } else if let length = headers["content-length"] {
            guard let count = Int(length), count >= 0 else {
                throw SocketTransportError(.invalidResponse, "the answer's Content-Length is not a number")
            }
            framing = .length(count)
        } else {
            framing = .untilClose
        }
        return Head(status: status, headers: headers, keepAlive: keepAlive, framing: framing, bodyStart: bodyStart)
    }

    /// Decodes a chunked body from its start.
    /// - Returns: the body and how many bytes it took (trailers included), or `nil` while incomplete.
    private static func dechunk(_ bytes: ArraySlice<UInt8>, limit: Int) throws(SocketTransportError) -> (body: [UInt8], used: Int)? {
        var body: [UInt8] = []
        var index = bytes.startIndex
        while true {
            guard let sizeEnd = lineEnd(in: bytes, from: index) else {
                if bytes.endIndex - index > 1_024 { throw SocketTransportError(.invalidResponse, "a chunk size line is too long") }
                return nil
            }
            let sizeText = String(decoding: bytes[index..<sizeEnd], as: UTF8.self).split(separator: ";", maxSplits: 1).first?.trimmingSpaces() ?? ""
            guard !sizeText.isEmpty, sizeText.count <= 15, let size = Int(sizeText, radix: 16), size >= 0 else {
                throw SocketTransportError(.invalidResponse, "a chunk size is not hexadecimal")
            }
            index = sizeEnd + 2
            if size == 0 {
                // Trailer fields, then an empty line.
                while true {
                    guard let end = lineEnd(in: bytes, from: index) else { return nil }
                    if end == index { return (body, end + 2 - bytes.startIndex) }
                    index = end + 2
                }
            }
            guard body.count + size <= limit else {
                throw SocketTransportError(.responseTooLarge, "the answer's body is larger than \(limit) bytes")
            }
            guard bytes.endIndex - index >= size + 2 else { return nil }
            guard bytes[index + size] == 13, bytes[index + size + 1] == 10 else {
                throw SocketTransportError(.invalidResponse, "a chunk does not end with CRLF")
            }
            body.append(contentsOf: bytes[index..<(index + size)])
            index += size + 2
        }
    }

    /// The index of the `\r` of the first `\r\n` at or after `start`.
    private static func lineEnd(in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.endIndex {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }
}

extension StringProtocol {
    /// Without the spaces and tabs around it.
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
