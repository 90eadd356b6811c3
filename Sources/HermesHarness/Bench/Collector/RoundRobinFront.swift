import Atomics
package import NIOCore
package import NIOPosix
package import HermesWire

/// A TCP front on 127.0.0.1 that hands each new connection to the next backend in turn, as
/// haproxy's `mode tcp` with `balance roundrobin` does, and copies bytes both ways until either
/// side closes. Small on purpose: the collector benchmark's load balancer.
package final class RoundRobinFront: Sendable {
    /// The port the front listens on.
    package let port: Int
    /// What the names of the threads the front runs on begin with (NIO's shared event loops).
    package static let threadNamePrefix = "NIO-SGLTN"
    private let channel: any Channel

    private init(port: Int, channel: any Channel) {
        self.port = port
        self.channel = channel
    }

    /// Starts listening on a free loopback port.
    /// - Parameter backends: the ports of the backends on 127.0.0.1.
    package static func start(backends: [Int]) async throws -> RoundRobinFront {
        let next = ManagedAtomic<Int>(0)
        let group = MultiThreadedEventLoopGroup.singleton
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // No reads until the backend is connected; then the glue paces them.
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                let backend = backends[next.loadThenWrappingIncrement(by: 1, ordering: .relaxed) % backends.count]
                let (toClient, toBackend) = GlueHandler.matchedPair()
                return ClientBootstrap(group: inbound.eventLoop)
                    .channelOption(.socketOption(.tcp_nodelay), value: 1)
                    .channelInitializer { outbound in outbound.pipeline.addHandler(toBackend) }
                    .connect(host: "127.0.0.1", port: backend)
                    .flatMap { _ in inbound.pipeline.addHandler(toClient) }
                    .flatMap { inbound.setOption(.autoRead, value: true) }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = channel.localAddress?.port else { throw RunFailure("the round-robin front did not bind") }
        return RoundRobinFront(port: port, channel: channel)
    }

    /// Stops listening (connections in flight end with their clients).
    package func stop() async throws {
        try await channel.close()
    }
}

/// One side of a glued pair of channels: what one reads, the other writes; reads wait while
/// the partner cannot write; a close or half-close on one side reaches the other.
/// Confined to its channel's event loop (both channels of a pair share one).
private final class GlueHandler: ChannelDuplexHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: GlueHandler?
    private var context: ChannelHandlerContext?
    private var pendingRead = false

    static func matchedPair() -> (GlueHandler, GlueHandler) {
        let first = GlueHandler(), second = GlueHandler()
        first.partner = second
        second.partner = first
        return (first, second)
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) { partner?.context?.write(data, promise: nil) }

    func channelReadComplete(context: ChannelHandlerContext) { partner?.context?.flush() }

    func channelInactive(context: ChannelHandlerContext) { partner?.context?.close(promise: nil) }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, case .inputClosed = event {
            partner?.context?.close(mode: .output, promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { partner?.partnerBecameWritable() }
    }

    func read(context: ChannelHandlerContext) {
        if partner?.context?.channel.isWritable ?? false {
            context.read()
        } else {
            pendingRead = true
        }
    }

    private func partnerBecameWritable() {
        guard pendingRead, let context else { return }
        pendingRead = false
        context.read()
    }
}
