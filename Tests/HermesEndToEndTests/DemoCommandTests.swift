import ArgumentParser
import Foundation
@testable import hermes
import HermesCollector
import HermesHarness
import Testing

/// `hermes demo --collector …` tells the truth about a collector it could not deliver to.
struct DemoCommandTests {
    @Test func aCollectorThatRefusesTheAppKeyFailsTheDemoSayingWhy() async throws {
        // Given a running collector, and a demo with an app key it does not know
        let loopback = try Loopback()
        let server = try await loopback.startCollector()
        let demo = try #require(
            try HermesCommand.parseAsRoot([
                "demo", "--collector", "http://127.0.0.1:\(server.port)", "--key", Hex.string(Loopback.key), "--key-id", "3",
                "--app-key", "not-a-known-key",
            ]) as? DemoCommand
        )
        // When it runs
        let report = try await demo.report { _ in }
        try await server.shutdown()
        // Then it fails, in plain words, with the collector's refusal
        let failure = try #require(report.failure)
        #expect(failure.contains("accepted records were not confirmed by the collector"), "\(failure)")
        #expect(failure.contains("paused (unauthorized)"), "\(failure)")
    }

    @Test func onlyHTTPCollectorsAreAccepted() {
        #expect {
            _ = try HermesCommand.parseAsRoot(["demo", "--collector", "ftp://127.0.0.1:8080", "--key", "00"])
        } throws: { error in
            HermesCommand.message(for: error) == "--collector must be an http:// or https:// URL such as http://127.0.0.1:8080"
        }
    }
}
