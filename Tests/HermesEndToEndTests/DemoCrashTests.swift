import Foundation
import Hermes
@testable import HermesHarness
import HermesCollector
import HermesWire
import Testing

/// The crash part of `hermes demo`, against a real loopback collector.
struct DemoCrashTests {
    @Test func theChildCrashesForRealAndItsStackArrivesAtTheCollector() async throws {
        let loopback = try Loopback()
        let server = try await loopback.startCollector()

        let crash = try await DemoCrash.run(
            configURL: URL(string: "http://127.0.0.1:\(server.port)/v1/config")!,
            credentials: .init(appKey: Loopback.appKey, wireFormat: .v2(Loopback.cipher)),
            storage: loopback.storage, logger: loopback.logger
        )
        try await server.shutdown()

        #expect(CrashCaptureTests.traps.contains(crash.signal))
        #expect(crash.captured.count == 1)
        let stack = crash.captured.first?.stack ?? ""
        #expect(stack.contains("crashProbeIndexesPastTheEnd"), "\(stack)")
        let text = DemoCrash.text(signal: crash.signal, captured: crash.captured, checked: true)
        #expect(text.contains("captured crash at the collector"))
    }
}
