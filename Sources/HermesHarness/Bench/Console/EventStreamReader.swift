import Foundation
package import NIOCore
import NIOPosix

/// A server-sent event stream held open over one loopback connection, as a browser holds the
/// console's live tail, and read as text as it arrives (the chunked framing is left in: the
/// reader only looks for what an event carries).
package struct EventStreamReader: ~Copyable {
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private var text = ""

    private init(inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) {
        self.inbound = inbound
    }

    /// Opens `GET <path>` on `port` of 127.0.0.1 with `headers`, runs `body` with the stream's
    /// reader, then closes the connection.
    package static func withOpen<T>(
        port: Int, path: String, headers: [String: String], _ body: (inout EventStreamReader) async throws -> T
    ) async throws -> T {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await channel.executeThenClose { inbound, outbound in
            let head = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
            try await outbound.write(
                ByteBuffer(string: "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\(head)\r\n"))
            var reader = EventStreamReader(inbound: inbound.makeAsyncIterator())
            return try await body(&reader)
        }
    }

    /// Reads until the text read since the last call holds `marker`, and forgets the text up to it.
    /// - Parameter deadline: when to give up; the stream must send something (an event, or the
    ///   tail's `: waiting` comment at each poll) for the deadline to be checked.
    /// - Throws: ``RunFailure`` when the stream ends or the deadline passes first.
    package mutating func read(until marker: String, deadline: ContinuousClock.Instant) async throws {
        while true {
            if let found = text.range(of: marker) {
                text.removeSubrange(..<found.upperBound)
                return
            }
            guard ContinuousClock.now < deadline else { throw RunFailure("the event stream did not send \(marker) in time") }
            guard let buffer = try await inbound.next() else { throw RunFailure("the event stream ended before \(marker)") }
            text += String(buffer: buffer)
        }
    }
}
