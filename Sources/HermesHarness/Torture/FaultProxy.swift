package import Foundation
package import Hermes
package import HermesWire
package import HTTPTypes
package import Hummingbird
package import Logging
package import NIOCore

/// A proxy on 127.0.0.1 in front of a collector: configuration requests pass through, uploads
/// get the faults a ``FaultPlan`` draws (401 and 404 with the collector's JSON refusal body). Forwards with the SDK's own `URLSessionTransport`.
package struct FaultProxy {
    package var upstream: URL
    package var plan: FaultPlan
    /// How long a `timeout` fault holds a request: longer than the client waits.
    package var hold: Duration

    /// Runs the proxy while `body` runs with its base URL, then stops it.
    package func run<T: Sendable>(_ body: (URL) async throws -> T) async throws -> T {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "hermes-fault-proxy"),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: Self.logger
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            defer { group.cancelAll() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw RunFailure("the fault proxy did not start") }
            return try await body(URL(string: "http://127.0.0.1:\(port)")!)
        }
    }

    /// Critical only: the server is stopped by cancellation, which it reports as an error.
    private static var logger: Logger {
        var logger = TortureLog.quiet
        logger.logLevel = .critical
        return logger
    }

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        let transport = URLSessionTransport()
        let (upstream, plan, hold) = (upstream, plan, hold)
        @Sendable func forward(_ request: Request) async throws -> Response {
            let body = try await request.body.collect(upTo: 64 << 20)
            var headers: [String: String] = [:]
            for field in request.headers where field.name.canonicalName.hasPrefix("x-hermes-") {
                headers[field.name.rawName] = field.value
            }
            let answer = try await transport.send(
                TransportRequest(
                    method: request.method.rawValue, url: URL(string: upstream.absoluteString + request.uri.description)!,
                    headers: headers, body: Array(buffer: body)
                ))
            var fields = HTTPFields()
            for (name, value) in answer.headers {
                if let name = HTTPField.Name(name), name != .contentLength { fields[name] = value }
            }
            return Response(status: .init(code: answer.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
        }
        @Sendable func refusal(_ status: HTTPResponse.Status, _ body: CollectorRefusal) throws -> Response {
            Response(
                status: status, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: try body.json.jsonBytes()))
            )
        }
        router.get("/v1/config") { request, _ in try await forward(request) }
        router.post("/v1/upload/{kind}") { request, _ in
            switch plan.draw() {
            case nil:
                return try await forward(request)
            case .serverError?:
                return Response(status: .internalServerError)
            case .lostResponse?:
                _ = try await forward(request)
                return Response(status: .internalServerError)
            case .reset?:
                let answer = try await forward(request)
                // Promise more than is sent, then fail the body: the server drops the connection.
                return Response(
                    status: answer.status, headers: [.contentLength: "4096"],
                    body: .init { writer in
                        try await writer.write(ByteBuffer(bytes: Array("{\"sto".utf8)))
                        throw RunFailure("connection reset by the fault proxy")
                    })
            case .timeout?:
                try await Task.sleep(for: hold)
                return try await forward(request)
            case .tooLarge?:
                return Response(status: .contentTooLarge)
            case .throttled?:
                return Response(status: .tooManyRequests, headers: [.retryAfter: "1"])
            case .unauthorized?:
                return try refusal(
                    .unauthorized, CollectorRefusal(error: "unauthorized", reason: "the fault proxy refuses the app key", scope: .request))
            case .notFound?:
                return try refusal(.notFound, CollectorRefusal(error: "notFound", reason: "the fault proxy knows no such collector", scope: .request))
            }
        }
        return router
    }
}
