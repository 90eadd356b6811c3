import NIOCore
import NIOHTTPTypes

/// The discipline of one connection, before any request handler runs:
///
/// - it is admitted only within the ``ConnectionLimiter``'s limits, or closed at once (counted);
/// - a request head must arrive within ``Timeouts/head`` of the connection opening or of the
///   previous answer (this also closes idle keep-alive connections);
/// - while a body arrives, each read must come within ``Timeouts/bodyRead`` of the one before.
///
/// A connection that misses a deadline is closed; a request handler in progress is never cut.
/// Each step only notes its deadline: one timer per connection, armed for the earliest deadline
/// it has to meet, finds at its turn whether the deadline has moved and waits again for it, so
/// that the reads and writes of a request start and cancel no timer of their own.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a connection may wait at each step.
    struct Timeouts: Sendable, Hashable {
        /// From the connection opening, or the previous answer, to a complete request head.
        var head: TimeAmount
        /// Between two reads of a request body.
        var bodyRead: TimeAmount
    }

    private let limiter: ConnectionLimiter
    private let timeouts: Timeouts
    private let metrics: CollectorMetrics
    private var address: String?
    /// When the current step must be over; `nil` while a request handler runs.
    private var deadline: NIODeadline?
    /// The connection's timer, and when it fires: never after ``deadline``.
    private var timer: (task: Scheduled<Void>, firesAt: NIODeadline)?

    init(limiter: ConnectionLimiter, timeouts: Timeouts, metrics: CollectorMetrics) {
        self.limiter = limiter
        self.timeouts = timeouts
        self.metrics = metrics
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        admit(context: context)
    }

    func channelActive(context: ChannelHandlerContext) {
        if address == nil { admit(context: context) }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: wait(timeouts.bodyRead, context: context)
        case .body: wait(timeouts.bodyRead, context: context)
        case .end: deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { wait(timeouts.head, context: context) }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline = nil
        timer?.task.cancel()
        timer = nil
        if let address {
            limiter.release(address)
            self.address = nil
        }
        context.fireChannelInactive()
    }

    private func admit(context: ChannelHandlerContext) {
        let remote = context.remoteAddress?.ipAddress ?? "unknown"
        guard limiter.admit(remote) else {
            metrics.countConnectionRefused()
            context.close(promise: nil)
            return
        }
        address = remote
        wait(timeouts.head, context: context)
    }

    private func wait(_ timeout: TimeAmount, context: ChannelHandlerContext) {
        let due = NIODeadline.now() + timeout
        deadline = due
        if let timer, timer.firesAt <= due { return }
        timer?.task.cancel()
        arm(at: due, on: context.eventLoop, closing: context.channel)
    }

    /// Arms the timer for `time`: then it closes `channel` if the deadline has passed, and
    /// otherwise waits again for the deadline, if there is one.
    private func arm(at time: NIODeadline, on loop: any EventLoop, closing channel: any Channel) {
        let task = loop.assumeIsolated().scheduleTask(deadline: time) { [self] in
            timer = nil
            guard let deadline else { return }
            guard deadline <= .now() else { return arm(at: deadline, on: loop, closing: channel) }
            metrics.countConnectionTimedOut()
            channel.close(promise: nil)
        }
        timer = (task, time)
    }
}
