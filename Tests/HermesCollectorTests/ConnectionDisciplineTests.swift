import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HermesCollector
import Testing

/// What the collector does with connections that hold it without asking anything, on real
/// loopback sockets.
struct ConnectionDisciplineTests {
    static func start(_ edit: (inout CollectorConfiguration) -> Void) async throws -> (CollectorServer, CollectorMetrics) {
        var fixture = try CollectorFixture()
        edit(&fixture.configuration)
        let metrics = CollectorMetrics()
        let server = try await CollectorServer.start(
            configuration: fixture.configuration, storage: fixture.storage, metrics: metrics, logger: CollectorFixture.silentLogger
        )
        return (server, metrics)
    }

    @Test func aConnectionThatSendsNoCompleteHeadIsClosedAfterTheHeadTimeout() async throws {
        let (server, metrics) = try await Self.start { $0.headTimeout = .milliseconds(200) }
        let silent = try RawConnection(port: server.port)
        let halfHead = try RawConnection(port: server.port)
        halfHead.send("POST /v1/upload/meta HTTP/1.1\r\nHost: x\r\n")
        #expect(await silent.isClosedByServer(within: .seconds(10)))
        #expect(await halfHead.isClosedByServer(within: .seconds(10)))
        #expect(metrics.snapshot.connectionsTimedOut >= 2)
        try await server.shutdown()
    }

    @Test func aBodyThatStopsArrivingIsClosedAfterTheReadTimeout() async throws {
        let (server, metrics) = try await Self.start { $0.bodyReadTimeout = .milliseconds(200) }
        let stalled = try RawConnection(port: server.port)
        // An upload the collector starts reading (its headers are all there), whose body stops.
        stalled.send(
            "POST /v1/upload/meta HTTP/1.1\r\nHost: x\r\nX-Hermes-App-Key: \(CollectorFixture.appKey)\r\n"
                + "X-Hermes-Namespace: shop\r\nContent-Length: 1000\r\n\r\nabc")
        #expect(await stalled.isClosedByServer(within: .seconds(10)))
        #expect(metrics.snapshot.connectionsTimedOut >= 1)
        try await server.shutdown()
    }

    @Test func connectionsPastTheLimitOfAnAddressAreClosedWhileTheOthersAreServed() async throws {
        // Given a collector that holds two connections from one address, and three connections
        // (its event loops may admit them in any order)
        let (server, metrics) = try await Self.start { $0.maxConnectionsPerAddress = 2 }
        var connections = try (0..<3).map { _ in try RawConnection(port: server.port) }
        // Then one of them is closed at once, and counted
        let deadline = ContinuousClock.now + .seconds(10)
        while metrics.snapshot.connectionsRefused == 0, ContinuousClock.now < deadline { await Task.yield() }
        #expect(metrics.snapshot.connectionsRefused == 1)
        var closed: [Int] = []
        for index in connections.indices {
            if await connections[index].isClosedByServer(within: .milliseconds(500)) { closed.append(index) }
        }
        #expect(closed.count == 1)
        // And once one of the two held is gone, a request is answered again (as soon as the
        // collector has seen it go: asked again until then, for 10 s at most)
        connections.remove(at: closed.first ?? 0)
        connections.removeLast()
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/health"))
        var answered = false
        while !answered, ContinuousClock.now < deadline + .seconds(10) {
            answered = (try? await URLSession.shared.data(from: url))?.1 != nil
        }
        #expect(answered)
        #expect(connections.count == 1)
        try await server.shutdown()
    }
}
