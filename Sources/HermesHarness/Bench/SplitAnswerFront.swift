import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP front on 127.0.0.1 before one backend that writes each HTTP answer's head and body in
/// two `send` calls on a socket with Nagle's algorithm on (the kernel's default), as Python's
/// `http.server` and some proxies do: the body waits until the client acknowledges the head. A
/// client that delays its acknowledgements (Linux waits up to 40 ms) then pays that wait on every
/// request: `hermes bench e2e --split-answers`. Blocking sockets, two threads per connection, as
/// such a server has.
package final class SplitAnswerFront: Sendable {
    /// The port the front listens on.
    package let port: Int
    private let listener: Int32

    private init(port: Int, listener: Int32) {
        self.port = port
        self.listener = listener
    }

    /// Starts listening on a free loopback port, before the backend at `backend` on 127.0.0.1.
    package static func start(backend: Int) throws -> SplitAnswerFront {
        var address = loopback(port: 0)
        let listener = socket(AF_INET, Self.stream, 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 64) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, bound else { throw RunFailure("the split-answer front did not bind") }
        Thread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                let server = socket(AF_INET, Self.stream, 0)
                var target = loopback(port: backend)
                let connected = withUnsafePointer(to: &target) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
                }
                guard connected else {
                    _ = close(client)
                    _ = close(server)
                    continue
                }
                var on: Int32 = 1
                _ = setsockopt(server, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                Thread { forward(from: client, to: server) }.start()
                Thread { splitAnswers(from: server, to: client) }.start()
            }
        }.start()
        return SplitAnswerFront(port: Int(UInt16(bigEndian: address.sin_port)), listener: listener)
    }

    /// Stops accepting (connections in flight end with their clients).
    package func stop() {
        _ = shutdown(listener, Int32(SHUT_RDWR))
        _ = close(listener)
    }

    #if canImport(Glibc)
    private static let stream = Int32(SOCK_STREAM.rawValue)
    #else
    private static let stream = SOCK_STREAM
    #endif

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// Client to backend: the bytes as they come, until either side closes.
    private static func forward(from source: Int32, to sink: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(source, &buffer, buffer.count, 0)
            guard count > 0, sendAll(buffer[..<count], to: sink) else { break }
        }
        _ = shutdown(sink, Int32(SHUT_WR))
        _ = close(source)
    }

    /// Backend to client: each answer, once whole (its head and `Content-Length` bytes), sent as
    /// its head, then, 0.1 ms later, its body, in two calls.
    private static func splitAnswers(from source: Int32, to sink: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(source, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            pending += buffer[..<count]
            while let (head, body) = frame(pending), pending.count >= head + body {
                guard sendAll(pending[..<head], to: sink) else { return }
                // A moment later, as a server that writes its body after its head: sent at once,
                // Linux would join both in one segment (autocorking) and Nagle would hold nothing.
                usleep(100)
                guard sendAll(pending[head..<head + body], to: sink) else { return }
                pending.removeFirst(head + body)
            }
        }
        _ = sendAll(pending[...], to: sink)
        _ = close(sink)
        _ = close(source)
    }

    private static func sendAll(_ bytes: ArraySlice<UInt8>, to socket: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// The head's length (through its blank line) and the body's (`Content-Length`, 0 without).
    private static func frame(_ bytes: [UInt8]) -> (head: Int, body: Int)? {
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        let length = head.split(separator: "\r\n").lazy.compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first
        return (end.upperBound, length ?? 0)
    }
}
