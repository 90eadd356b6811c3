import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HermesTransport
import Testing

/// `URLSessionTransport` when the caller's task is cancelled: the request ends as cancelled,
/// promptly, and a cancellation that lands while the answer arrives never hangs the caller.
struct URLSessionTransportTests {
    @Test func aCallerCancelledBeforeItsRequestStartsIsAnsweredCancelledNotAfterTheTimeout() async throws {
        // Given a server that reads the request and never answers
        let server = try ScriptedHTTPServer { connection in
            connection.readRequest()
            connection.waitForClose()
        }
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/v1/upload/meta"))
        let transport = URLSessionTransport()

        // When the task that sends is cancelled before it sends
        let clock = ContinuousClock()
        let started = clock.now
        let sending = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(TransportRequest(method: "POST", url: url, body: [1, 2, 3], timeout: .seconds(30)))
        }

        // Then it ends as cancelled, not as the 30 s timeout
        let error = await #expect(throws: URLError.self) { _ = try await sending.value }
        #expect(error?.code == .cancelled)
        #expect(started.duration(to: clock.now) < .seconds(25))
    }

    @Test func cancellationsRacingTheirAnswersEndEitherWayAndNeverHang() async throws {
        // Given a server that answers every request on a connection at once
        let server = try ScriptedHTTPServer { connection in
            while connection.readRequest() {
                connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n{}")
            }
        }
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/v1/upload/meta"))
        let transport = URLSessionTransport()

        // When 200 requests are each cancelled after a different number of yields, so that
        // some cancellations land before the request, some during it and some as it is answered
        var answered = 0
        var cancelled = 0
        for round in 0..<200 {
            let sending = Task { try await transport.send(TransportRequest(method: "POST", url: url, body: Array(repeating: 7, count: 512))) }
            for _ in 0..<(round % 40) { await Task.yield() }
            sending.cancel()

            // Then each ends with the answer or as cancelled, and nothing else
            do {
                let response = try await sending.value
                #expect(response.status == 200 && response.body == Array("{}".utf8))
                answered += 1
            } catch let error as URLError where error.code == .cancelled {
                cancelled += 1
            }
        }
        #expect(answered + cancelled == 200)
        #expect(cancelled > 0, "no cancellation landed before its answer")
    }
}
