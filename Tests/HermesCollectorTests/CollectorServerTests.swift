import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HermesCollector
import Testing

struct CollectorServerTests {
    @Test func serverListensOnAnEphemeralLoopbackPortAndShutsDownGracefully() async throws {
        // Given a collector asked for port 0
        let fixture = try CollectorFixture()
        let server = try await CollectorServer.start(
            configuration: fixture.configuration, storage: fixture.storage, logger: CollectorFixture.silentLogger
        )
        #expect(server.port > 0)
        do {
            // When a real HTTP client asks for /health on the port it learned
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/health"))
            let (data, response) = try await URLSession.shared.data(from: url)
            // Then it answers ok
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "ok")
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }
}
