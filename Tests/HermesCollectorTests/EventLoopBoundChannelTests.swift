@testable import HermesCollector
import Hummingbird
import HummingbirdCore
import Logging
import NIOPosix
import ServiceLifecycle
import Testing

/// Where a connection's request code runs: on its channel's event loop, also after it awaited
/// work isolated elsewhere.
struct EventLoopBoundChannelTests {
    /// Work isolated to an actor: awaiting it leaves the request's executor.
    actor Elsewhere {
        func value() -> Int { 1 }
    }

    /// The body of the answer to `GET /where` from a server on loopback: `loop` when the handler
    /// ran on one event loop's thread before and after awaiting an actor, `pool` when it ran
    /// off the event loops.
    static func answer(boundToLoops: Bool) async throws -> String {
        let router = Router()
        let elsewhere = Elsewhere()
        router.get("/where") { _, _ -> String in
            let before = MultiThreadedEventLoopGroup.currentEventLoop
            _ = await elsewhere.value()
            let after = MultiThreadedEventLoopGroup.currentEventLoop
            guard let before, let after else { return "pool" }
            return before === after ? "loop" : "another loop"
        }
        let server = HTTPServerBuilder { responder -> any ServerChildChannel in
            let http1 = HTTP1Channel(responder: responder)
            guard boundToLoops else { return http1 }
            return EventLoopBoundChannel(base: http1)
        }
        let (ports, port) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { port.yield($0.localAddress?.port ?? 0) }, logger: CollectorFixture.silentLogger)
        let group = ServiceGroup(services: [app], logger: CollectorFixture.silentLogger)
        async let running: Void = group.run()
        defer { port.finish() }
        let listening = try #require(await ports.first { _ in true })
        let connection = try RawConnection(port: listening)
        connection.send("GET /where HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let bytes = await connection.bytesUntilClosed(within: .seconds(60))
        await group.triggerGracefulShutdown()
        try await running
        let text = String(decoding: try #require(bytes), as: UTF8.self)
        return String(text.split(separator: "\r\n\r\n", maxSplits: 1).last ?? "")
    }

    @Test func aRequestRunsOnItsChannelsEventLoop() async throws {
        #expect(try await Self.answer(boundToLoops: true) == "loop")
    }

    @Test func withoutItARequestRunsOffTheEventLoops() async throws {
        #expect(try await Self.answer(boundToLoops: false) == "pool")
    }
}
