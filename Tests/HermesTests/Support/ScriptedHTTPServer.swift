#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif
import Atomics
import Foundation
import HermesWire

/// A TCP listener on 127.0.0.1 whose connections follow a script on their own threads: what an
/// HTTP server does wrong or slowly, with every byte it received kept for the test to check.
/// Every blocking call gives up after 60 s, so a test cannot hang on it (and a loaded machine
/// running hundreds of tests at once does not see a connection close between two requests).
final class ScriptedHTTPServer: Sendable {
    /// One accepted connection, as the script sees it.
    struct Connection {
        let descriptor: Int32
        /// 0 for the first connection the server accepted, then 1, 2, …
        let index: Int
        fileprivate let log: Log

        /// Reads one request (header, then a `Content-Length` body) and records its bytes.
        /// - Returns: `false` when the client closed the connection first.
        @discardableResult
        func readRequest() -> Bool {
            var bytes: [UInt8] = []
            var wanted: Int?
            while wanted.map({ bytes.count < $0 }) ?? true {
                var chunk = [UInt8](repeating: 0, count: 65_536)
                let count = receive(&chunk)
                guard count > 0 else { return false }
                bytes += chunk[..<count]
                if wanted == nil, let end = bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
                    let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
                    let length =
                        head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                    wanted = end + length
                }
            }
            log.requests.withLock { $0.append(bytes) }
            return true
        }

        func write(_ text: String) {
            write(Array(text.utf8))
        }

        func write(_ bytes: [UInt8]) {
            var sent = 0
            while sent < bytes.count {
                let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, bytes.count - sent, ScriptedHTTPServer.sendFlags) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                sent += count
            }
        }

        /// Waits (60 s at most) until the client closes the connection.
        func waitForClose() {
            var byte = [UInt8](repeating: 0, count: 1)
            while receive(&byte) > 0 {}
        }

        /// `recv` into `buffer`, again when a signal interrupted it (other tests in this process
        /// send real signals).
        private func receive(_ buffer: inout [UInt8]) -> Int {
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count >= 0 || errno != EINTR { return count }
            }
        }
    }

    /// What every connection received, shared with the server's threads.
    fileprivate final class Log: Sendable {
        let requests = Locked<[[UInt8]]>([])
        let accepted = ManagedAtomic<Int>(0)
    }

    let port: Int
    private let listener: Int32
    private let log = Log()

    /// Starts listening; each accepted connection runs `script` on a thread of its own, then is closed.
    init(script: @escaping @Sendable (Connection) -> Void) throws {
        let listener = socket(AF_INET, Self.streamType, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [listener, log] in
            while true {
                let descriptor = accept(listener, nil, nil)
                if descriptor < 0, errno == EINTR { continue }
                guard descriptor >= 0 else {
                    // Shut down by deinit: only now is the descriptor closed, so that its number
                    // cannot be reused by another test's listener while this loop still accepts.
                    close(listener)
                    return
                }
                let index = log.accepted.loadThenWrappingIncrement(by: 1, ordering: .relaxed)
                var timeout = timeval(tv_sec: 60, tv_usec: 0)
                _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                let connection = Connection(descriptor: descriptor, index: index, log: log)
                Thread {
                    script(connection)
                    close(descriptor)
                }.start()
            }
        }
        thread.start()
    }

    /// Stops listening (connections are refused from now on); the accepting thread then closes
    /// the descriptor.
    deinit {
        _ = shutdown(listener, Int32(SHUT_RDWR))
    }

    /// The requests received so far, byte for byte, in order.
    var requests: [[UInt8]] { log.requests.withLock { $0 } }

    /// How many connections were accepted.
    var connections: Int { log.accepted.load(ordering: .relaxed) }

    #if canImport(Darwin)
    private static let streamType = SOCK_STREAM
    fileprivate static let sendFlags: Int32 = 0
    #else
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    fileprivate static let sendFlags = Int32(MSG_NOSIGNAL)
    #endif
}
