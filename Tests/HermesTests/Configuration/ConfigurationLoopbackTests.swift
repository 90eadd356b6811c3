import Foundation
@testable import Hermes
import HermesWire
import Hummingbird
import NIOCore
import Testing

/// The real `URLSessionTransport` against a small HTTP server on 127.0.0.1.
struct ConfigurationLoopbackTests {
    @Test func fetchesOverLoopbackThrough200And304And500AndGarbage() async throws {
        let step = Locked(0)
        let router = Router()
        router.get("/v1/config") { request, _ -> Response in
            let current = step.withLock { value in
                defer { value += 1 }
                return value
            }
            switch current {
            case 0:
                let body = ConfigurationServiceTests.document(revision: 8, timer: 12)
                return Response(
                    status: .ok, headers: [.eTag: "\"8\"", .contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
            case 1:
                let matches = request.headers[.ifNoneMatch] == "\"8\""
                return Response(status: matches ? .notModified : .badRequest)
            case 2:
                return Response(status: .internalServerError)
            default:
                return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "<html>not json</html>")))
            }
        }
        try await withLoopbackServer(router) { port in
            let harness = Harness()
            let url = URL(string: "http://127.0.0.1:\(port)/v1/config")!
            let client = try HermesClient(configuration: harness.configuration(configURL: url, transport: URLSessionTransport()))
            let outcomes = [
                await client.refreshConfiguration(), await client.refreshConfiguration(),
                await client.refreshConfiguration(), await client.refreshConfiguration(),
            ]
            await client.shutdown()

            guard case .updated(let document, let etag, _) = outcomes[0] else { Issue.record("expected an update, got \(outcomes[0])"); return }
            #expect(document.revision == 8 && etag == "\"8\"")
            guard case .notModified = outcomes[1] else { Issue.record("expected 304, got \(outcomes[1])"); return }
            guard case .failed = outcomes[2], case .failed = outcomes[3] else { Issue.record("expected failures, got \(outcomes)"); return }
            #expect(client.configurationRevision == 8)
            #expect(client.configuration(for: "JZ")?.periodicTimerSecond == 12)
        }
    }
}
