import HermesWire

/// What one grouping step writes: the membership rows of the records it read, their groups (each
/// signature once, with the earliest `createTime` among them), and the progress to record.
///
/// How a step finds the records not grouped yet, in every store: the crash records received
/// since the recorded progress minus ``receiveMargin``, that have no membership row yet (an
/// anti-join on the membership key), oldest receipt first. Progress is the latest `receivedAt`
/// grouped. A store's ids or commits may come out of order (PostgreSQL hands out `bigserial` ids
/// before the transactions that take them commit, and several collectors insert at once), so a
/// record committed late, after records received later were grouped, is still found as long as
/// it commits within the margin of its receipt; re-reading the margin's records costs only their
/// index entries, and the membership key keeps each record in one group once. The margin also
/// covers collectors whose clocks differ by less than it.
///
/// Pure: the stores read the rows and write what this holds.
package struct CrashGroupingBatch: Sendable {
    /// A group as the step writes it.
    package struct Group: Sendable {
        package var signature: CrashSignature
        /// The earliest `createTime` of the step's records in the group.
        package var firstSeen: Int64
    }

    /// How far before the recorded progress a step looks again, in milliseconds (10 minutes).
    package static let receiveMargin: Int64 = 600_000

    /// The condition that picks the records grouped, spelled with literals so that the stores'
    /// partial indexes on it apply: `appCrash` records of the `hermes` namespace.
    package static let crashRecords =
        "namespace = '\(ConfigurationDocument.hermesNamespace)' AND monitor_type = '\(MonitorType.appCrash)'"

    /// One row per record.
    package let members: [CrashMember]
    /// Each signature of ``members`` once, in order of first appearance.
    package let groups: [Group]
    /// The latest `receivedAt` among ``members``, or `nil` for an empty step.
    package let receivedUntil: Int64?

    /// Gathers the step's records.
    package init(_ members: [CrashMember]) {
        var groups: [Group] = []
        var positions: [String: Int] = [:]
        for member in members {
            if let position = positions[member.signature.digest] {
                groups[position].firstSeen = min(groups[position].firstSeen, member.createTime)
            } else {
                positions[member.signature.digest] = groups.count
                groups.append(Group(signature: member.signature, firstSeen: member.createTime))
            }
        }
        self.members = members
        self.groups = groups
        receivedUntil = members.map(\.receivedAt).max()
    }

    /// The first `receivedAt` a step reads, given the recorded progress.
    package static func firstReceipt(after progress: Int64) -> Int64 {
        progress.subtractingReportingOverflow(receiveMargin).overflow ? .min : progress - receiveMargin
    }
}
