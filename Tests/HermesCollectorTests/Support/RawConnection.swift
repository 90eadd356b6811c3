import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to a loopback port, for tests of what the collector does with
/// connections that send little or nothing. Each wait has its own deadline and blocks a thread
/// of its own, never one of the concurrency pool the collector under test runs on.
final class RawConnection: Sendable {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends `text` as it is.
    func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Whether the server closed the connection (end of stream or reset) within `timeout`;
    /// any bytes it sent first are read and dropped.
    func isClosedByServer(within timeout: Duration) async -> Bool {
        await bytesUntilClosed(within: timeout) != nil
    }

    /// The bytes the server sent until it closed the connection (end of stream or reset), or
    /// `nil` if it had not closed it within `timeout`.
    func bytesUntilClosed(within timeout: Duration) async -> [UInt8]? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.readUntilClosed(within: timeout)) }.start()
        }
    }

    /// ``bytesUntilClosed(within:)``, blocking the calling thread.
    private func readUntilClosed(within timeout: Duration) -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var received: [UInt8] = []
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&request, 1, milliseconds) >= 0 else { return received }
            guard request.revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return received }
            received += buffer.prefix(count)
        }
    }
}
