package import Foundation
package import Hermes

/// The app that `hermes torture crash` kills. It sends numbered records in batches, writes each
/// batch to the accepted log once `send` took it and to the confirmed log once `flush()`
/// returned, uploads now and then, and announces each phase on standard output (`send`,
/// `commit`, `upload`) so that the parent can kill it there.
package struct CrashChild {
    /// The phases the child announces.
    package enum Phase: String, CaseIterable {
        case send, commit, upload
    }

    package var app: TortureApp
    /// The directory holding the accepted and confirmed logs.
    package var logs: String

    package init(app: TortureApp, logs: String) {
        self.app = app
        self.logs = logs
    }

    /// Sends records `first..<first + count`, `batch` per flush, then shuts the client down.
    /// - Throws: when a record is rejected or a log cannot be written.
    package func send(first: Int64, count: Int64, batch: Int64) async throws {
        let client = try app.client(document: TortureScenario.document)
        client.start()
        let accepted = try RangeLog(path: Self.acceptedPath(logs))
        let confirmed = try RangeLog(path: Self.confirmedPath(logs))
        var next = first
        var round = 0
        while next < first + count {
            let range = next...(min(next + batch, first + count) - 1)
            announce(.send)
            for n in range where !TortureScenario.send(n, with: client) {
                throw RunFailure("record \(n) was rejected")
            }
            try accepted.append(range)
            announce(.commit)
            try await client.flush()
            try confirmed.append(range)
            round += 1
            if round.isMultiple(of: 3) {
                announce(.upload)
                await client.upload()
            }
            next = range.upperBound + 1
        }
        await client.shutdown()
    }

    /// Sends nothing: uploads what the store holds and shuts down.
    /// - Returns: whether the store ended empty.
    package func drain() async throws -> Bool {
        let client = try app.client(document: TortureScenario.document)
        client.start()
        return try await TortureScenario.drain(client, storage: app.storage)
    }

    private func announce(_ phase: Phase) {
        FileHandle.standardOutput.write(Data("\(phase.rawValue)\n".utf8))
    }

    package static func acceptedPath(_ logs: String) -> String { logs + "/accepted.log" }
    package static func confirmedPath(_ logs: String) -> String { logs + "/confirmed.log" }
}
