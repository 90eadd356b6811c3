import HummingbirdCore
import Logging
import NIOCore

/// Serves each connection in a task that runs on the connection's own event loop.
///
/// Hummingbird serves a connection in a task on Swift's global concurrent executor: each request
/// read from the socket, each answer written and each database reply resumes that task on
/// another thread. With the channel's event loop as the task's executor preference, the task's
/// code runs on the thread that reads and writes its socket: on PostgreSQL, 6 % less of the
/// collector's CPU per record (docs/benchmarks.md). Code isolated to an actor still runs on that
/// actor's executor; only the connection's own task moves, so its code must not block: slow work
/// (a password hash) goes to a queue of its own, as it did before.
///
/// Swift's global executor itself stays as it is, so the service group's shutdown and the
/// collector's background services never run on an event loop.
struct EventLoopBoundChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            await withTaskExecutorPreference(EventLoopTaskExecutor(loop: value.channel.eventLoop)) {
                await base.handle(value: value, logger: logger)
            }
        } else {
            await base.handle(value: value, logger: logger)
        }
    }
}

/// An event loop as a task executor: a job enqueued runs on the loop's thread.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
