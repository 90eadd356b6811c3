import Foundation
@testable import Hermes
@testable import HermesTransport
import Testing

/// The socket transport against scripted loopback servers: what goes on the wire, connection
/// reuse, and the ways a server fails to answer.
struct SocketHTTPTransportTests {
    private static let ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

    private func post(_ port: Int, _ body: String, timeout: Duration = .seconds(5)) -> TransportRequest {
        TransportRequest(
            method: "POST", url: URL(string: "http://127.0.0.1:\(port)/v1/upload/meta?x=1")!,
            headers: ["X-Hermes-Namespace": "JZ"], body: Array(body.utf8), timeout: timeout)
    }

    @Test func requestsGoOnOneKeptAliveConnectionByteForByte() async throws {
        // Given a server that answers every request on a connection
        let server = try ScriptedHTTPServer { connection in
            while connection.readRequest() { connection.write(Self.ok) }
        }
        let transport = SocketHTTPTransport()

        // When two requests are sent one after the other
        let first = try await transport.send(post(server.port, "one"))
        let second = try await transport.send(post(server.port, "second"))

        // Then both were answered over the same connection, with exactly these bytes
        #expect(first.status == 200 && first.body == Array("ok".utf8) && first.header("Content-Length") == "2")
        #expect(second.status == 200)
        #expect(server.connections == 1)
        #expect(
            server.requests.map { String(decoding: $0, as: UTF8.self) } == [
                "POST /v1/upload/meta?x=1 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 3\r\nX-Hermes-Namespace: JZ\r\n\r\none",
                "POST /v1/upload/meta?x=1 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 6\r\nX-Hermes-Namespace: JZ\r\n\r\nsecond",
            ])
    }

    @Test func aKeptAliveConnectionTheServerClosesBeforeAnsweringIsReplacedOnce() async throws {
        // Given a server whose first connection answers one request, then takes the next and
        // closes without answering (its idle timer fired), and whose later connections answer
        let server = try ScriptedHTTPServer { connection in
            if connection.index == 0 {
                if connection.readRequest() { connection.write(Self.ok) }
                connection.readRequest()
                return
            }
            while connection.readRequest() { connection.write(Self.ok) }
        }
        let transport = SocketHTTPTransport()

        // When two requests are sent
        let first = try await transport.send(post(server.port, "a"))
        let second = try await transport.send(post(server.port, "b"))

        // Then the second went again on a new connection and was answered
        #expect(first.status == 200 && second.status == 200)
        #expect(server.requests.map { $0.last } == [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "b")])
        #expect(server.connections == 2)
    }

    @Test func aNewConnectionClosedBeforeAnsweringIsNotRetried() async throws {
        // Given a server that reads each request and closes without answering
        let server = try ScriptedHTTPServer { connection in connection.readRequest() }

        // When a request is sent, then it fails once, on one connection
        let error = await #expect(throws: SocketTransportError.self) {
            try await SocketHTTPTransport().send(post(server.port, "a"))
        }
        #expect(error?.code == .connectionClosed)
        #expect(server.connections == 1)
    }

    @Test func connectionCloseAnswersAndChunkedBodiesAreRead() async throws {
        // Given a server that answers in chunks, after a 100 Continue, and closes the connection
        let server = try ScriptedHTTPServer { connection in
            guard connection.readRequest() else { return }
            connection.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
            connection.write("4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nTrailer: x\r\n\r\n")
        }
        let transport = SocketHTTPTransport()

        // When two requests are sent
        let first = try await transport.send(post(server.port, "a"))
        let second = try await transport.send(post(server.port, "b"))

        // Then both bodies are whole and the closed connection was not used again
        #expect(first.status == 201 && String(decoding: first.body, as: UTF8.self) == "Wikipedia")
        #expect(second.status == 201 && String(decoding: second.body, as: UTF8.self) == "Wikipedia")
        #expect(server.connections == 2)
    }

    @Test func aRefusedConnectionIsATypedError() async throws {
        // Given a port nothing listens on
        let port = ListeningSocket.refusingPort

        // When a request is sent there, then the transport says so
        let error = await #expect(throws: SocketTransportError.self) {
            try await SocketHTTPTransport().send(post(port, "a"))
        }
        #expect(error?.code == .connectionRefused)
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        // Given a server that reads the request and never answers
        let server = try ScriptedHTTPServer { connection in
            connection.readRequest()
            connection.waitForClose()
        }

        // When a request with a short timeout is sent
        let error = await #expect(throws: SocketTransportError.self) {
            try await SocketHTTPTransport().send(post(server.port, "a", timeout: .milliseconds(300)))
        }

        // Then it fails as timed out (the server would have closed the connection only after 60 s)
        #expect(error?.code == .timedOut)
        #expect(server.requests.count == 1)
    }

    @Test func anAnswerLargerThanTheBoundIsRefused() async throws {
        // Given a server whose answer declares a body of 2 MiB, and a transport bound to 1 MiB
        let server = try ScriptedHTTPServer { connection in
            guard connection.readRequest() else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2097152\r\n\r\n")
            connection.write([UInt8](repeating: 0x61, count: 65_536))
        }
        var configuration = SocketHTTPTransport.Configuration()
        configuration.maxBodyBytes = 1 << 20

        // When a request is sent, then the answer is refused as too large
        let error = await #expect(throws: SocketTransportError.self) {
            try await SocketHTTPTransport(configuration: configuration).send(post(server.port, "a"))
        }
        #expect(error?.code == .responseTooLarge)
    }

    @Test func httpsAndHeaderInjectionAreRefusedBeforeConnecting() async throws {
        let transport = SocketHTTPTransport()
        let secure = await #expect(throws: SocketTransportError.self) {
            try await transport.send(TransportRequest(method: "GET", url: URL(string: "https://127.0.0.1:1/v1/config")!))
        }
        #expect(secure?.code == .unsupportedURL)
        let injected = await #expect(throws: SocketTransportError.self) {
            try await transport.send(
                TransportRequest(method: "GET", url: URL(string: "http://127.0.0.1:1/v1/config")!, headers: ["X-A": "1\r\nX-B: 2"]))
        }
        #expect(injected?.code == .invalidRequest)
    }

    @Test func cancellingTheCallerEndsAWaitingExchange() async throws {
        // Given a server that tells when a request arrived and never answers (for 60 s)
        let (arrivals, arrived) = AsyncStream<Void>.makeStream()
        let server = try ScriptedHTTPServer { connection in
            connection.readRequest()
            arrived.yield()
            connection.waitForClose()
        }
        let transport = SocketHTTPTransport()
        let began = ContinuousClock.now
        let task = Task { try await transport.send(post(server.port, "a", timeout: .seconds(30))) }

        // When the calling task is cancelled once the request arrived
        var iterator = arrivals.makeAsyncIterator()
        _ = await iterator.next()
        task.cancel()

        // Then the send ends with a cancellation, before the server or the timeout gave up (either
        // would have ended it with another error)
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ContinuousClock.now - began < .seconds(30))
    }
}
