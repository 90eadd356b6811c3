import Foundation
import Hermes
import HermesHarness
import HermesTestKit
import HermesWire
import Testing

/// `TimedTransport`: what `hermes bench e2e` reads of the requests it passes on.
struct TimedTransportTests {
    @Test func theFirstUploadIsTheFirstPostNotTheConfigurationFetch() async throws {
        let transport = TimedTransport(InMemoryTransport { _ in TransportResponse(status: 200) })
        let url = try #require(URL(string: "http://127.0.0.1:9/v1/upload/meta"))
        let clock = ContinuousClock()

        // A configuration fetch (GET) is timed but is not an upload
        _ = try await transport.send(TransportRequest(method: "GET", url: url))
        #expect(transport.firstPostStart == nil)

        // The first POST is the first upload; a later one does not move it
        let beforeFirst = clock.now
        _ = try await transport.send(TransportRequest(method: "POST", url: url, body: [1, 2, 3]))
        let first = try #require(transport.firstPostStart)
        #expect(first >= beforeFirst && first <= clock.now)
        _ = try await transport.send(TransportRequest(method: "POST", url: url, body: [4]))
        #expect(transport.firstPostStart == first)
        #expect(transport.bodyBytes == 4)
    }
}
