#if canImport(Darwin)
import Darwin
#else
import Glibc
#endif

/// One TCP connection for ``SocketHTTPTransport``: a non-blocking POSIX socket whose every wait
/// is a `poll(2)` bounded by the exchange's deadline. Blocking: used on the transport's own
/// queue only.
final class SocketConnection: @unchecked Sendable {
    // @unchecked: a connection is used by one exchange at a time; it passes between exchanges
    // through the transport's locked idle list, and `shutdown` from another thread is safe.
    let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Connects to `host:port` (each resolved address in turn) before `deadline`.
    /// - Parameter watch: told each socket before it connects, so that a cancellation can shut it.
    /// - Throws: ``SocketTransportError`` `.cannotResolve`, `.connectionRefused`, `.timedOut`,
    ///   `.connectionFailed`.
    static func open(
        host: String, port: Int, deadline: ContinuousClock.Instant,
        watch: (SocketConnection) -> Void
    ) throws(SocketTransportError) -> SocketConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Self.streamType
        hints.ai_protocol = Self.tcpProtocol
        hints.ai_flags = AI_NUMERICSERV
        var addresses: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &addresses)
        guard status == 0, let first = addresses else {
            throw SocketTransportError(.cannotResolve, "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(addresses) }
        var lastError = SocketTransportError(.connectionFailed, "no address to connect to for \(host)")
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let address = cursor?.pointee {
            cursor = address.ai_next
            let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
            guard descriptor >= 0 else {
                lastError = SocketTransportError(.connectionFailed, "socket() failed: \(Self.describe(errno))", systemError: errno)
                continue
            }
            let connection = SocketConnection(descriptor: descriptor)
            watch(connection)
            do throws(SocketTransportError) {
                try connection.connect(to: address, deadline: deadline, name: "\(host):\(port)")
                return connection
            } catch {
                if error.code == .timedOut { throw error }
                lastError = error
            }
        }
        throw lastError
    }

    private func connect(to address: addrinfo, deadline: ContinuousClock.Instant, name: String) throws(SocketTransportError) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var on: Int32 = 1
        _ = setsockopt(descriptor, Self.tcpProtocol, TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var code: Int32 = 0
        if Self.connectSocket(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS || errno == EINTR else {
                throw Self.connectError(errno, name: name)
            }
            try wait(for: Int16(POLLOUT), until: deadline, doing: "connecting to \(name)")
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length)
        }
        guard code == 0 else { throw Self.connectError(code, name: name) }
    }

    /// Sends all of `bytes`.
    /// - Throws: `.connectionClosed` when the peer closed or reset the connection, `.timedOut`,
    ///   `.connectionFailed` for another error.
    func write(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(SocketTransportError) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress! + sent, buffer.count - sent, Self.sendFlags)
            }
            if count >= 0 {
                sent += count
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                try wait(for: Int16(POLLOUT), until: deadline, doing: "sending the request")
            case EPIPE, ECONNRESET, ENOTCONN:
                throw SocketTransportError(.connectionClosed, "the server closed the connection while the request was sent", systemError: errno)
            case let code:
                throw SocketTransportError(.connectionFailed, "sending failed: \(Self.describe(code))", systemError: code)
            }
        }
    }

    /// Appends what arrives next to `buffer`.
    /// - Returns: how many bytes arrived, 0 when the server closed the connection.
    /// - Throws: `.connectionClosed` on a reset, `.timedOut`, `.connectionFailed` for another error.
    func read(into buffer: inout [UInt8], deadline: ContinuousClock.Instant) throws(SocketTransportError) -> Int {
        #if os(Linux)
        // Acknowledge what arrives at once instead of up to 40 ms later: a server that writes an
        // answer's head and body apart, with Nagle's algorithm on, sends the body only once the
        // head is acknowledged. Linux clears the flag as it goes, so it is set before each read.
        var quick: Int32 = 1
        _ = setsockopt(descriptor, Self.tcpProtocol, Int32(TCP_QUICKACK), &quick, socklen_t(MemoryLayout<Int32>.size))
        #endif
        while true {
            let count = withUnsafeTemporaryAllocation(byteCount: Self.readSize, alignment: 1) { scratch in
                let count = recv(descriptor, scratch.baseAddress, scratch.count, 0)
                if count > 0 { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<count])) }
                return count
            }
            if count >= 0 { return count }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                try wait(for: Int16(POLLIN), until: deadline, doing: "waiting for the answer")
            case ECONNRESET, ENOTCONN, EPIPE:
                throw SocketTransportError(.connectionClosed, "the server reset the connection", systemError: errno)
            case let code:
                throw SocketTransportError(.connectionFailed, "receiving failed: \(Self.describe(code))", systemError: code)
            }
        }
    }

    /// Whether an idle kept-alive connection can carry a request: nothing arrived on it and the
    /// server has not closed it (a closed one reads as readable).
    var isIdle: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 0
    }

    /// Wakes an exchange blocked on this connection from another thread; later I/O fails.
    func shutDown() {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Waits until the socket is ready for `events`, or throws `.timedOut` at `deadline`.
    private func wait(for events: Int16, until deadline: ContinuousClock.Instant, doing what: String) throws(SocketTransportError) {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw SocketTransportError(.timedOut, "timed out \(what)") }
            let milliseconds = left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
            let ready = poll(&entry, 1, Int32(clamping: milliseconds))
            if ready > 0 { return }
            if ready < 0, errno != EINTR {
                throw SocketTransportError(.connectionFailed, "poll failed: \(Self.describe(errno))", systemError: errno)
            }
        }
    }

    private static func connectError(_ code: Int32, name: String) -> SocketTransportError {
        code == ECONNREFUSED
            ? SocketTransportError(.connectionRefused, "nothing listens on \(name)", systemError: code)
            : SocketTransportError(.connectionFailed, "cannot connect to \(name): \(describe(code))", systemError: code)
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static let readSize = 64 * 1024

    #if canImport(Darwin)
    private static let streamType = SOCK_STREAM
    private static let tcpProtocol = IPPROTO_TCP
    private static let sendFlags: Int32 = 0
    private static func connectSocket(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
        Darwin.connect(descriptor, UnsafePointer(address), length)
    }
    #else
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let tcpProtocol = Int32(IPPROTO_TCP)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    private static func connectSocket(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
        Glibc.connect(descriptor, UnsafePointer(address), length)
    }
    #endif
}
