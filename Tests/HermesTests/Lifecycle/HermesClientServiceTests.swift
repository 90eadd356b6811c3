#if canImport(Glibc) || canImport(Darwin)
import Foundation
@testable import Hermes
import HermesTestKit
import HermesWire
import Logging
import ServiceLifecycle
import Testing
import UnixSignals
#if canImport(Glibc)
import Glibc
#endif

/// `HermesClient` as a swift-service-lifecycle `Service`: a real SIGTERM drains it.
struct HermesClientServiceTests {
    /// Tells the test when the group runs its services (its signal handlers are installed by then).
    final class RunningProbe: Service {
        let running: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() {
            (running, continuation) = AsyncStream.makeStream()
        }

        func run() async throws {
            continuation.yield()
            continuation.finish()
            try? await gracefulShutdown()
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSIGTERMStoresUploadsAndShutsTheClientDown() async throws {
        // Given a client in a service group that shuts down gracefully on SIGTERM
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.identityClient(transport: collector.transport)
        let ids = (0..<5).compactMap { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64($0))]).reportID }
        let probe = RunningProbe()
        let group = ServiceGroup(
            configuration: .init(
                services: [client, probe], gracefulShutdownSignals: [.sigterm], logger: Logger(label: "hermes.tests")
            ))
        let running = Task { try await group.run() }
        var started = probe.running.makeAsyncIterator()
        _ = await started.next()

        // When the process receives SIGTERM
        kill(getpid(), SIGTERM)
        try await running.value

        // Then every accepted record reached the collector and the client is shut down
        #expect(collector.storedIDs("JZ") == Set(ids))
        #expect(client.send(type: "pay", prefix: "JZ", meta: ["i": 9]).code == .shutDown)
    }
}
#endif
