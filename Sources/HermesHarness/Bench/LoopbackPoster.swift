package import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One keep-alive HTTP/1.1 connection to a loopback server that sends ready-made requests and
/// reads each answer's status and body, with blocking calls on its caller's thread: the lightest
/// client there is, so that a benchmark on a small machine measures the server, not the client.
/// Not a general HTTP client: it understands `Content-Length` answers only.
///
/// `@unchecked Sendable`: it is handed to the one thread that uses it, and used by no other.
package final class LoopbackPoster: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    private let socket: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    /// Connects to `127.0.0.1:port`.
    /// - Throws: ``Failure`` if the connection cannot be made.
    package init(port: Int) throws {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw Failure(description: "connect() to port \(port) failed: errno \(errno)")
        }
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(socket) }

    /// A request's bytes: request line, `headers`, `Content-Length`, then `body`.
    package static func request(path: String, port: Int, headers: [String: String], body: [UInt8]) -> [UInt8] {
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// Sends one request made by ``request(path:port:headers:body:)`` and reads its answer.
    /// - Returns: the answer's status code.
    /// - Throws: ``Failure`` if the connection fails or the answer is not understood.
    package func post(_ request: [UInt8]) throws -> Int {
        try request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw Failure(description: "send() failed: errno \(errno)") }
                sent += count
            }
        }
        var filled = 0
        var headerEnd: Int?
        while headerEnd == nil {
            filled += try receive(at: filled)
            headerEnd = Self.headerEnd(buffer[..<filled])
        }
        guard let headerEnd, let status = Self.status(buffer[..<headerEnd]), let length = Self.contentLength(buffer[..<headerEnd]) else {
            throw Failure(description: "the answer has no status or no Content-Length")
        }
        guard headerEnd + length <= buffer.count else { throw Failure(description: "the answer is larger than the buffer") }
        while filled < headerEnd + length { filled += try receive(at: filled) }
        guard filled == headerEnd + length else { throw Failure(description: "bytes after the answer") }
        return status
    }

    private func receive(at offset: Int) throws -> Int {
        guard offset < buffer.count else { throw Failure(description: "the answer is larger than the buffer") }
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + offset, $0.count - offset, 0) }
        guard count > 0 else { throw Failure(description: count == 0 ? "the server closed the connection" : "recv() failed: errno \(errno)") }
        return count
    }

    /// The offset just past `\r\n\r\n`, if the head is complete.
    private static func headerEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4 else { return nil }
        for start in bytes.startIndex...(bytes.endIndex - 4) where bytes[start..<start + 4].elementsEqual(terminator) {
            return start + 4
        }
        return nil
    }

    private static func status(_ head: ArraySlice<UInt8>) -> Int? {
        let line = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        return line.count >= 2 ? Int(line[1]) : nil
    }

    private static func contentLength(_ head: ArraySlice<UInt8>) -> Int? {
        for line in String(decoding: head, as: UTF8.self).split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }
}
