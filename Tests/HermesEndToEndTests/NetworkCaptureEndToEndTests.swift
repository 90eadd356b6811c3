import Foundation
import HermesCollector
import HermesWire
import Testing

/// `captureNetwork()` in an app of its own, `hermes-crash-probe`: a process whose shared session
/// nothing used before the capture was turned on (a test process has used its own long before).
struct NetworkCaptureEndToEndTests {
    /// A request through `URLSession.shared` is sampled.
    @Test func captureNetworkSamplesTheSharedSessionOfAnAppThatTurnsItOnFirst() async throws {
        let loopback = try Loopback()
        let server = try await loopback.startCollector()
        let storage = loopback.directory.appendingPathComponent("app")
        _ = try await AbnormalExitEndToEndTests.run("clean", storage: storage, extra: ["--net", "http://127.0.0.1:\(server.port)/health/7"])
        try await server.shutdown()
        let samples = try AbnormalExitEndToEndTests.records(MonitorType.net, in: storage)
        #expect(samples.count == 1)
        #expect(samples.first?["path"] == "/health/:id" && samples.first?["status"] == 404)
    }
}
