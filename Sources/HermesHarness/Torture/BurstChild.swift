package import Foundation
package import Hermes

/// The app that `hermes torture burst` kills. It sends its records as fast as it can on one
/// thread, marks in a ``SendMap`` what each `send` returned, announces `reached` after a given
/// number of sends and `sent` after the last one, then waits to be killed. Recovering, it sends
/// nothing: it starts a client on the same store (which recovers what the killed app left),
/// uploads everything, and prints the records the client counted as torn.
package struct BurstChild {
    /// The lines the child prints for the parent to kill it on.
    package enum Announcement: String {
        case reached, sent
    }

    package var app: TortureApp

    package init(app: TortureApp) {
        self.app = app
    }

    /// Sends `records` records numbered from `first`, marking each in a send map created at
    /// `marks`, then waits to be killed.
    /// - Throws: ``RunFailure`` when it was not killed within 600 s of its last send.
    package func burst(marks: String, first: Int64, records: Int, announceAfter: Int?) async throws -> Never {
        let client = try app.client(document: BurstTorture.document)
        client.start()
        try await onThread {
            let map = try SendMap(creatingAt: marks, count: records)
            for index in 0..<records {
                let outcome = client.send(type: "appLag", meta: BenchWorkload.burstEvent(first + Int64(index)))
                map.mark(index, outcome.isAccepted ? .accepted : .rejected)
                if index + 1 == announceAfter { Self.announce(.reached) }
            }
        }
        Self.announce(.sent)
        try await Task.sleep(for: .seconds(600))
        throw RunFailure("the burst child was not killed within 600 s of its last send")
    }

    /// Recovers what the killed app left, uploads it, and prints `torn <count>`.
    /// - Returns: whether the store ended empty.
    package func recover() async throws -> Bool {
        let client = try app.client(document: BurstTorture.document)
        client.start()
        // Whatever recovery handed the writer is in the store before the store is read.
        try await client.flush()
        let emptied = try await TortureScenario.drain(client, storage: app.storage)
        let torn = client.diagnostics().losses.values.reduce(0) { $0 + ($1[.torn] ?? 0) }
        print("\(LossReason.torn.name) \(torn)")
        return emptied
    }

    /// The count in a recovery child's `torn <count>` line, 0 when there is none.
    package static func torn(in lines: [String]) -> Int {
        lines.lazy.compactMap { line in
            let words = line.split(separator: " ")
            return words.count == 2 && words[0] == LossReason.torn.name ? Int(words[1]) : nil
        }.first ?? 0
    }

    private static func announce(_ announcement: Announcement) {
        FileHandle.standardOutput.write(Data("\(announcement.rawValue)\n".utf8))
    }
}
