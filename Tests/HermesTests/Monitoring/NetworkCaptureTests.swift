import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Hermes
import HermesWire
import Hummingbird
import Testing

/// The capture of the app's own `URLSession` requests, without a wrapper, on loopback: through
/// sessions whose configuration went through `capturing(_:)` (a test process cannot register the
/// capture for `URLSession.shared`: every test's shared-session traffic would be taken).
/// Serialized: one client per process receives the samples.
@Suite(.serialized)
struct NetworkCaptureTests {
    @Test func anAppSessionsRequestsAreSampledAndAnsweredUnchangedButHermesOwnAreNot() async throws {
        let harness = Harness()
        let client = try harness.client()
        let router = Router()
        router.get("/v1/items/:id") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "item"))) }
        router.get("/broken") { _, _ in Response(status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: "oops"))) }
        router.get("/v1/config") { _, _ in Response(status: .notModified) }

        var answers: [String] = []
        let session = URLSession(configuration: client.capturing(.ephemeral))
        try await withLoopbackServer(router) { port in
            for path in ["/v1/items/12", "/broken"] {
                let (data, response) = try await session.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
                answers.append("\((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data, as: UTF8.self))")
            }
            // A request of Hermes' own (it carries the app key) goes by, unrecorded
            var own = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/config")!)
            own.setValue("test-key", forHTTPHeaderField: HermesHeader.appKey)
            _ = try await session.data(for: own)
        }
        try await client.flush()

        // The app got the answers as the server sent them; two samples, with their statuses
        #expect(answers == ["200 item", "500 oops"])
        let samples = try InstrumentedSessionTests.samples(harness)
        #expect(samples.map { $0[RecordField.monitorType] } == [.string(MonitorType.net), .string(MonitorType.net)])
        #expect(samples.map { $0["path"] } == ["/v1/items/:id", "/broken"])
        #expect(samples.map { $0["status"] } == [200, 500])
        #expect(samples.first?["responseBytes"] == 4)
        await client.shutdown()
    }

    @Test func aRefusedConnectionAndATimeoutAreSampledAsNetErrors() async throws {
        let harness = Harness()
        let client = try harness.client()
        let refused = ListeningSocket.refusingPort
        let silent = try ListeningSocket()
        var slow = URLRequest(url: URL(string: "http://127.0.0.1:\(silent.port)/slow")!)
        slow.timeoutInterval = 1
        let session = URLSession(configuration: client.capturing(.default))

        await #expect(throws: (any Error).self) { _ = try await session.data(from: URL(string: "http://127.0.0.1:\(refused)/v1/items/7")!) }
        await #expect(throws: (any Error).self) { _ = try await session.data(for: slow) }
        try await client.flush()
        silent.close()

        let samples = try InstrumentedSessionTests.samples(harness)
        #expect(samples.map { $0[RecordField.monitorType] } == [.string(MonitorType.netError), .string(MonitorType.netError)])
        #expect(samples.map { $0["errorCode"] } == [.int(Int64(URLError.cannotConnectToHost.rawValue)), .int(Int64(URLError.timedOut.rawValue))])
        #expect(samples.last?["durationMs"]?.intValue.map { $0 >= 900 } == true)
        await client.shutdown()
    }
}
