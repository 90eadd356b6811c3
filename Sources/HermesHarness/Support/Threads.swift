package import Dispatch
package import Foundation
package import HermesWire

/// Runs `body` on `count` threads of their own (real parallel callers, not cooperative tasks)
/// and returns their results in order.
package func runThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) async -> [T] {
    await withCheckedContinuation { continuation in
        let results = Locked<[Int: T]>([:])
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                let result = body(index)
                results.withLock { $0[index] = result }
                group.leave()
            }.start()
        }
        group.notify(queue: .global()) {
            continuation.resume(returning: results.withLock { results in (0..<count).map { results[$0]! } })
        }
    }
}

/// Runs blocking work (waiting on a child process, say) on a thread of its own, so that it
/// holds none of the few threads concurrency tasks share.
package func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await runThreads(1) { _ in Result { try body() } }[0].get()
}
