import HermesCollector
import HermesWire
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

struct RequestObservingMiddlewareTests {
    /// Keeps the message and metadata of every entry logged through it.
    final class Recorder: Sendable {
        let entries = Locked<[(message: String, metadata: Logger.Metadata)]>([])

        var logger: Logger {
            var logger = Logger(label: "hermes.collector.tests") { _ in Handler(recorder: self) }
            logger.logLevel = .debug
            return logger
        }

        struct Handler: LogHandler {
            let recorder: Recorder
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .debug
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                recorder.entries.withLock { $0.append(("\(event.message)", metadata.merging(event.metadata ?? [:]) { $1 })) }
            }
        }
    }

    @Test func everyRequestIsLoggedAtDebugWithMethodPathAndStatusButNoQuery() async throws {
        let recorder = Recorder()
        let fixture = try CollectorFixture()
        let app = try await buildApplication(configuration: fixture.configuration, storage: fixture.storage, logger: recorder.logger)
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/health", method: .get)
            _ = try await client.execute(uri: HermesPath.events + "?namespace=secret-shop", method: .get)
        }
        let requests = recorder.entries.withLock { $0 }.filter { $0.message == "request" }
        #expect(requests.map { $0.metadata["path"]?.description } == ["/health", HermesPath.events])
        #expect(requests.map { $0.metadata["status"]?.description } == ["200", "401"])
        #expect(requests.allSatisfy { $0.metadata["method"] == "GET" && $0.metadata["duration_ms"] != nil })
        #expect(!requests.contains { "\($0.metadata)".contains("secret-shop") })
    }
}
