package import Foundation
package import Hermes
package import HermesWire

/// The final table of `hermes demo`: per namespace and type, what the app sent and what the
/// collector stored, with the bytes on the wire and the compression ratio per namespace.
package struct DemoReport {
    package var text: String
    /// Accepted records not found at the collector; `nil` when the collector could not be read.
    package var missing: Int? { summary.missing }
    /// The same figures for `--json`.
    package var summary: DemoSummary
    /// Accepted records still in the app's store: no collector confirmed them.
    package var unconfirmed = 0
    /// How the last upload of each namespace that did not complete ended (`JZ: paused (unauthorized)`).
    package var lastOutcomes: [String] = []

    /// Why the demo failed, in plain words, or `nil` when every accepted record is at the collector.
    package var failure: String? {
        if unconfirmed > 0 {
            let why = lastOutcomes.isEmpty ? "" : "; the last uploads ended: " + lastOutcomes.joined(separator: ", ")
            return "\(unconfirmed) accepted records were not confirmed by the collector\(why)"
        }
        if let missing, missing > 0 { return "\(missing) accepted records are missing at the collector" }
        return nil
    }

    package static func make(result: DemoApp.Result, view: (any DemoCollectorView)?) async throws -> DemoReport {
        var table = TextTable(columns: ["namespace", "type", "sent", "accepted", "stored", "wire bytes", "ratio"])
        var missing = view == nil ? nil : 0
        var totals = (sent: 0, accepted: 0, stored: 0, wire: 0, raw: 0)
        var summary = DemoSummary()
        var sessions: Set<String> = []
        var users: Set<String> = []
        for namespace in Set(result.sent.keys.map(\.namespace)).sorted() {
            let records = try await view?.records(in: namespace)
            sessions.formUnion(records?.compactMap(\.sessionID) ?? [])
            users.formUnion(records?.compactMap(\.userID) ?? [])
            let keys = result.sent.keys.filter { $0.namespace == namespace }.sorted()
            for key in keys {
                let stored = records.map { list in list.filter { $0.monitorType == RecordNamespace.storedType(key.type, in: namespace) }.count }
                table.add([namespace, key.type, "\(result.sent[key] ?? 0)", "\(result.accepted[key] ?? 0)", stored.map(String.init) ?? "?", "", ""])
            }
            let accepted = result.acceptedIDs[namespace] ?? []
            let storedIDs = Set(records?.map(\.reportID) ?? [])
            let raw = records?.reduce(0) { $0 + $1.rawBytes } ?? 0
            let wire = result.wireBytes[namespace] ?? 0
            if records != nil { missing? += accepted.subtracting(storedIDs).count }
            let sent = keys.reduce(0) { $0 + (result.sent[$1] ?? 0) }
            summary.namespaces[namespace] = .init(sent: sent, accepted: accepted.count, stored: records?.count)
            table.add([namespace, "all", "\(sent)", "\(accepted.count)", records.map { "\($0.count)" } ?? "?", "\(wire)", ratio(raw, wire)])
            totals.sent += sent
            totals.accepted += accepted.count
            totals.stored += records?.count ?? 0
            totals.wire += wire
            totals.raw += raw
        }
        summary.sessions = sessions.count
        summary.users = users.count
        summary.missing = missing
        var lines = [table.render()]
        let verdict =
            switch missing {
            case nil: "not checked (give --admin-token to read the collector back)"
            case 0?: "none missing"
            case let count?: "\(count) MISSING"
            }
        lines.append(
            "total: \(totals.sent) sent, \(totals.accepted) accepted, \(totals.stored) stored at the collector, \(verdict); "
                + "\(totals.wire) bytes on the wire for \(totals.raw) bytes of records (ratio \(ratio(totals.raw, totals.wire)))")
        lines.append(
            "\(summary.users) user, \(summary.sessions) sessions at the collector "
                + "(hermes also stores the SDK's own identify, sessionStart and sessionEnd records)")
        if result.leftInStore > 0 { lines.append("still in the app's store: \(result.leftInStore)") }
        return DemoReport(
            text: lines.joined(separator: "\n"), summary: summary, unconfirmed: result.leftInStore,
            lastOutcomes: result.lastOutcomes.filter { $0.value != .completed }.map { "\($0.key): \($0.value)" }.sorted()
        )
    }

    /// Adds the crash part: the closing lines about the crashing child, and the crashes the
    /// collector holds.
    package mutating func add(crash signal: Int32, captured: [DemoCrash.Captured], checked: Bool) {
        text += "\n" + DemoCrash.text(signal: signal, captured: captured, checked: checked)
        summary.capturedCrashes = captured
    }

    private static func ratio(_ raw: Int, _ wire: Int) -> String {
        guard raw > 0, wire > 0 else { return "-" }
        return String(format: "%.1fx", Double(raw) / Double(wire))
    }
}
