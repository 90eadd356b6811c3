package import HermesWire

/// Where a full copy of the data set stands: the next revision to read from (`position`) and the
/// server's revision when the copy started (`floor`). A device in a full copy reports `floor` as its
/// revision, so its revision never goes backwards, and sends the cursor back to go on.
///
/// On the wire it is the opaque string `full:<position>:<floor>`.
package struct SyncCursor: Hashable {
    var position: Int64
    var floor: Int64

    init(position: Int64, floor: Int64) {
        self.position = position
        self.floor = floor
    }

    package init?(_ text: String?) {
        guard let text else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count == 3, parts[0] == "full", let position = Int64(parts[1]), let floor = Int64(parts[2]),
            position >= 0, floor >= 0
        else { return nil }
        self.init(position: position, floor: floor)
    }

    var text: String { "full:\(position):\(floor)" }
}

/// Where a page starts, decided from a device's revision and cursor and the history the server
/// still has (the revision of the newest forgotten tombstone, `horizon`). A device behind that
/// history, or ahead of the server, starts a full copy over (`reset`).
package struct SyncPagePlan: Hashable {
    /// Read records written after this revision.
    package var position: Int64
    /// The server's revision when the full copy started, during one.
    var floor: Int64?
    /// The device must drop its copy first.
    var reset: Bool

    /// - Parameters:
    ///   - maxRevision: the device's revision.
    ///   - cursor: its cursor.
    ///   - horizon: deletes at or below this revision are forgotten.
    ///   - current: the server's revision now.
    package init(maxRevision: Int64, cursor: SyncCursor?, horizon: Int64, current: Int64) {
        if let cursor, cursor.floor == maxRevision {
            // Deletes of records copied so far are all above the floor or the position.
            if max(cursor.position, cursor.floor) >= horizon {
                self.init(position: cursor.position, floor: cursor.floor, reset: false)
            } else {
                self.init(position: 0, floor: current, reset: true)
            }
        } else if maxRevision == 0 {
            self.init(position: 0, floor: current, reset: false)
        } else if maxRevision < horizon || maxRevision > current {
            // Behind the forgotten history, or ahead of the server (its store restored from a backup).
            self.init(position: 0, floor: current, reset: true)
        } else {
            self.init(position: maxRevision, floor: nil, reset: false)
        }
    }

    init(position: Int64, floor: Int64?, reset: Bool) {
        self.position = position
        self.floor = floor
        self.reset = reset
    }

    /// The answer's revision and cursor once the page reaches `end` (of `current`).
    private func finish(end: Int64, current: Int64) -> (maxRevision: Int64, cursor: String?, hasMore: Bool) {
        let hasMore = end < current
        guard let floor, hasMore else { return (end, nil, hasMore) }
        return (max(floor, end), SyncCursor(position: end, floor: max(floor, end)).text, hasMore)
    }

    /// The answer of a page that read `changeSets`, the revisions up to `end` (of `current`).
    package func answer(end: Int64, current: Int64, changeSets: [SyncChangeSet]) -> SyncAnswer {
        let finish = finish(end: end, current: current)
        return SyncAnswer(maxRevision: finish.maxRevision, hasMore: finish.hasMore, reset: reset, cursor: finish.cursor, changeSets: changeSets)
    }
}
