@testable import HermesCollector
import HermesWire
import Testing

struct GroupCommitTests {
    /// A commit function that records each group it is given and can hold the first one until
    /// the test opens its gate.
    final class Recorder: Sendable {
        private let state = Locked<(groups: [[Int]], committed: Set<Int>)>(([], []))
        let started: AsyncStream<[Int]>
        private let startedContinuation: AsyncStream<[Int]>.Continuation
        private let gate: AsyncStream<Void>
        private let gateContinuation: AsyncStream<Void>.Continuation
        private let holdsFirstGroup: Bool

        init(holdsFirstGroup: Bool) {
            self.holdsFirstGroup = holdsFirstGroup
            (started, startedContinuation) = AsyncStream.makeStream()
            (gate, gateContinuation) = AsyncStream.makeStream()
        }

        var groups: [[Int]] { state.withLock { $0.groups } }

        func isCommitted(_ item: Int) -> Bool { state.withLock { $0.committed.contains(item) } }

        func openGate() { gateContinuation.finish() }

        /// Commits a group: odd items fail, even ones succeed with twice their value.
        func commit(_ items: [Int]) async -> [Result<Int, any Error>] {
            let isFirst = state.withLock { state in
                state.groups.append(items)
                return state.groups.count == 1
            }
            startedContinuation.yield(items)
            if isFirst && holdsFirstGroup {
                for await _ in gate {}
            }
            state.withLock { $0.committed.formUnion(items) }
            return items.map { $0.isMultiple(of: 2) ? .success($0 * 2) : .failure(OddItem(item: $0)) }
        }
    }

    struct OddItem: Error, Equatable {
        var item: Int
    }

    /// Waits until `count` callers wait behind the group being committed (bounded).
    static func waitUntil(_ queue: GroupCommit<Int, Int>, hasWaiting count: Int) async throws {
        for _ in 0..<100_000 {
            if await queue.waiting >= count { break }
            await Task.yield()
        }
        #expect(await queue.waiting == count)
    }

    /// Submits `first`, waits until its group is being committed (and held there), submits
    /// `others` one by one, each once the one before waits, then opens the gate.
    /// - Returns: every caller's result, `first`'s first.
    static func submit(_ first: Int, thenWhileItCommits others: [Int], to queue: GroupCommit<Int, Int>, recorder: Recorder) async throws -> [Int] {
        var started = recorder.started.makeAsyncIterator()
        var tasks = [Task { try await queue.submit(first) }]
        #expect(await started.next() == [first])
        for (number, item) in others.enumerated() {
            tasks.append(Task { try await queue.submit(item) })
            try await waitUntil(queue, hasWaiting: number + 1)
        }
        recorder.openGate()
        var results: [Int] = []
        for task in tasks { results.append(try await task.value) }
        return results
    }

    @Test func itemsArrivingDuringACommitAreCommittedTogetherInTheNextGroup() async throws {
        let recorder = Recorder(holdsFirstGroup: true)
        let queue = GroupCommit<Int, Int>(maximumWeight: 100, weight: { _ in 1 }) { await recorder.commit($0) }

        // When three items arrive while the first one's group is being committed
        let results = try await Self.submit(0, thenWhileItCommits: [2, 4, 6], to: queue, recorder: recorder)

        // Then they go in one group, in arrival order, and each caller gets its own result
        #expect(results == [0, 4, 8, 12])
        #expect(recorder.groups == [[0], [2, 4, 6]])
    }

    @Test func groupTakesWaitingItemsOnlyUpToTheMaximumWeight() async throws {
        let recorder = Recorder(holdsFirstGroup: true)
        let queue = GroupCommit<Int, Int>(maximumWeight: 5, weight: { $0 }) { await recorder.commit($0) }

        // When items of weight 2, 2, 4 and 6 wait behind a group being committed
        let results = try await Self.submit(0, thenWhileItCommits: [2, 2, 4, 6], to: queue, recorder: recorder)

        // Then each next group stops before the weight would pass 5, and takes an item heavier
        // than that alone
        #expect(results == [0, 4, 4, 8, 12])
        #expect(recorder.groups == [[0], [2, 2], [4], [6]])
    }

    @Test func eachCallerGetsItsOwnResultOnlyOnceItsGroupCommitted() async throws {
        let recorder = Recorder(holdsFirstGroup: false)
        let queue = GroupCommit<Int, Int>(maximumWeight: 8, weight: { _ in 1 }) { await recorder.commit($0) }

        // When 200 callers submit at once
        let answers = await withTaskGroup(of: (Int, Result<Int, OddItem>, Bool).self) { group in
            for item in 0..<200 {
                group.addTask {
                    do {
                        let value = try await queue.submit(item)
                        return (item, .success(value), recorder.isCommitted(item))
                    } catch {
                        return (item, .failure(error as? OddItem ?? OddItem(item: -1)), recorder.isCommitted(item))
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        // Then every item was committed exactly once, before its caller was answered, and each
        // caller got its own item's result
        #expect(recorder.groups.flatMap { $0 }.sorted() == Array(0..<200))
        #expect(recorder.groups.allSatisfy { $0.count <= 8 })
        #expect(answers.count == 200)
        for (item, result, committedBeforeAnswer) in answers {
            #expect(committedBeforeAnswer)
            #expect(result == (item.isMultiple(of: 2) ? .success(item * 2) : .failure(OddItem(item: item))))
        }
    }
}
