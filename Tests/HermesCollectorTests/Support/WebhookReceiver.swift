import HTTPTypes
import Hummingbird
import NIOCore
import HermesWire

/// A webhook receiver on a free port of 127.0.0.1: answers each `POST /hook` with the next
/// status of its script (200 once the script is used up) and keeps every request it got.
final class WebhookReceiver: Sendable {
    /// One request as it arrived.
    struct Received: Sendable {
        var headers: HTTPFields
        var body: [UInt8]

        func header(_ name: String) -> String? {
            HTTPField.Name(name).flatMap { headers[$0] }
        }
    }

    private let state: Locked<(statuses: [Int], received: [Received])>

    private init(statuses: [Int]) {
        state = Locked((statuses, []))
    }

    /// What arrived so far, in order.
    var received: [Received] { state.withLock { $0.received } }

    /// Runs a receiver answering with `statuses` while `body` runs with it and its URL, then stops it.
    static func with<T: Sendable>(statuses: [Int] = [], _ body: (WebhookReceiver, _ url: String) async throws -> T) async throws -> T {
        let receiver = WebhookReceiver(statuses: statuses)
        let router = Router()
        router.post("/hook") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            let status = receiver.state.withLock { state in
                state.received.append(Received(headers: request.headers, body: Array(bytes.readableBytesView)))
                return state.statuses.isEmpty ? 200 : state.statuses.removeFirst()
            }
            return Response(status: HTTPResponse.Status(code: status))
        }
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: CollectorFixture.silentLogger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw CancellationError() }
            return try await body(receiver, "http://127.0.0.1:\(port)/hook")
        }
    }
}
