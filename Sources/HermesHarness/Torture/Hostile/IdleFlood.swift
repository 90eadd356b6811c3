package import Foundation
#if canImport(Glibc)
import Glibc
private let closeDescriptor = Glibc.close
private let bindSocket = Glibc.bind
private let connectSocket = Glibc.connect
#elseif canImport(Darwin)
import Darwin
private let closeDescriptor = Darwin.close
private let bindSocket = Darwin.bind
private let connectSocket = Darwin.connect
#endif

/// Plain TCP connections to a loopback port that send nothing (or a request that never ends),
/// opened from one source address of the loopback range: what a stranger holding sockets open
/// looks like to the collector. Blocking; closed together by ``close()``.
package final class IdleFlood: @unchecked Sendable {
    // @unchecked: the descriptors are only touched by the thread that runs the flood's calls.
    private var descriptors: [Int32] = []

    package init() {}

    deinit { close() }

    /// Opens up to `count` connections from `source` (an address of 127.0.0.0/8) to
    /// 127.0.0.1:`port`, each sending `prefix` if given, and stops at the first that cannot be
    /// opened (the process's descriptors, the ephemeral ports).
    /// - Returns: how many were opened.
    @discardableResult
    package func open(_ count: Int, from source: String, to port: Int, sending prefix: String? = nil) -> Int {
        var opened = 0
        for _ in 0..<count {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { break }
            guard Self.bind(descriptor, to: source), Self.connect(descriptor, port: port) else {
                _ = closeDescriptor(descriptor)
                break
            }
            if let prefix { _ = Array(prefix.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } }
            descriptors.append(descriptor)
            opened += 1
        }
        return opened
    }

    /// How many of the connections the server has closed (end of stream, reset) by now.
    package var closedByServer: Int {
        var requests = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&requests, nfds_t(requests.count), 0) >= 0 else { return 0 }
        var closed = 0
        var scratch = [UInt8](repeating: 0, count: 512)
        for request in requests where request.revents != 0 {
            let count = scratch.withUnsafeMutableBytes { recv(request.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count <= 0 || request.revents & Int16(POLLHUP | POLLERR) != 0 { closed += 1 }
        }
        return closed
    }

    /// Waits up to `timeout` for the server to close at least `count` of the connections.
    /// - Returns: how many it had closed when the wait ended.
    package func waitForClosed(_ count: Int, timeout: Duration) -> Int {
        let deadline = ContinuousClock.now + timeout
        var closed = closedByServer
        while closed < count, ContinuousClock.now < deadline {
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
            closed = closedByServer
        }
        return closed
    }

    /// Closes every connection.
    package func close() {
        for descriptor in descriptors { closeDescriptor(descriptor) }
        descriptors = []
    }

    private static func bind(_ descriptor: Int32, to source: String) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(source)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bindSocket(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func connect(_ descriptor: Int32, port: Int) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connectSocket(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
