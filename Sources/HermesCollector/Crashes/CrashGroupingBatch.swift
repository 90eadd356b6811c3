import HermesWire

/// What one grouping step writes: the membership rows of the records it read, their groups (each
/// signature once, with the earliest `createTime` among them), and the progress to record.
///
/// How a step finds the records not grouped yet, in every store. Progress is a cursor, the
/// `(receivedAt, id)` of the last record grouped in that order. A step first reads the crash
/// records after the cursor, oldest receipt first; when fewer than a step's worth are there
/// (grouping has caught up), it reads instead every record received since the cursor's
/// `receivedAt` minus ``receiveMargin`` that has no membership row yet (an anti-join on the
/// membership key). A store's commits can come out of that order: PostgreSQL hands out
/// `bigserial` ids before the transactions that take them commit, and several collectors insert
/// at once, each with its own clock. So a record committed after the cursor passed it is still
/// grouped, by the first caught-up step after its commit, as long as it commits within the margin
/// of its receipt (and collectors' clocks differ by less than it). A backlog is read in cursor
/// order without the anti-join's cost; the margin is swept only once caught up, at the cost of
/// reading its records' index entries. The membership key keeps each record in one group once,
/// however often it is read.
///
/// Pure: the stores read the rows and write what this holds.
package struct CrashGroupingBatch: Sendable {
    /// A group as the step writes it.
    package struct Group: Sendable {
        package var signature: CrashSignature
        /// The earliest `createTime` of the step's records in the group.
        package var firstSeen: Int64
    }

    /// Where grouping stands: the `(receivedAt, id)` of the last record grouped, in that order.
    package struct Cursor: Sendable, Comparable {
        package var receivedAt: Int64
        package var id: Int64

        package init(receivedAt: Int64, id: Int64) {
            self.receivedAt = receivedAt
            self.id = id
        }

        /// The first `receivedAt` a caught-up step reads again.
        package var marginStart: Int64 {
            receivedAt.subtractingReportingOverflow(receiveMargin).overflow ? .min : receivedAt - receiveMargin
        }

        package static func < (lhs: Cursor, rhs: Cursor) -> Bool {
            (lhs.receivedAt, lhs.id) < (rhs.receivedAt, rhs.id)
        }
    }

    /// How far before the cursor a caught-up step looks again, in milliseconds (10 minutes).
    package static let receiveMargin: Int64 = 600_000

    /// The condition that picks the records grouped, spelled with literals so that the stores'
    /// partial indexes on it apply: `appCrash` records of the `hermes` namespace.
    package static let crashRecords =
        "namespace = '\(ConfigurationDocument.hermesNamespace)' AND monitor_type = '\(MonitorType.appCrash)'"

    /// One row per record.
    package let members: [CrashMember]
    /// Each signature of ``members`` once, in order of first appearance.
    package let groups: [Group]
    /// The cursor after ``members``: the latest of theirs and `progress`.
    package let cursor: Cursor

    /// Gathers the step's records.
    /// - Parameters:
    ///   - members: the records read, each with its cursor.
    ///   - progress: the cursor before the step.
    package init(_ members: [(member: CrashMember, cursor: Cursor)], progress: Cursor) {
        var groups: [Group] = []
        var positions: [String: Int] = [:]
        for (member, _) in members {
            if let position = positions[member.signature.digest] {
                groups[position].firstSeen = min(groups[position].firstSeen, member.createTime)
            } else {
                positions[member.signature.digest] = groups.count
                groups.append(Group(signature: member.signature, firstSeen: member.createTime))
            }
        }
        self.members = members.map(\.member)
        self.groups = groups
        cursor = max(progress, members.map(\.cursor).max() ?? progress)
    }
}
