import GRDB
import HermesWire

/// What start-up housekeeping deletes in one namespace (specification §5).
struct HousekeepingRule: Sendable, Equatable {
    /// Delete rows of other app versions.
    var isUpdateClear: Bool
    var expirationDays: Double
    /// Delete rows larger than this; `nil` keeps rows of any size.
    var maxBodyBytes: Int?
    /// What an expired row counts as: ``LossReason/expired``, or ``LossReason/orphaned`` for a
    /// namespace no configuration names any more.
    var expiryReason: LossReason = .expired
    /// The stored monitor types of the namespace's monitor list, when the server said it: an
    /// expired row of another type counts as ``LossReason/unmonitored``.
    var monitoredTypes: [String]? = nil

    /// The rule for the rows of a namespace no configuration names: they expire after the
    /// default `expirationDay` and count as ``LossReason/orphaned``; nothing else deletes them.
    static let orphaned = HousekeepingRule(
        isUpdateClear: false, expirationDays: NamespaceConfiguration().expirationDay, maxBodyBytes: nil, expiryReason: .orphaned
    )

    /// Each deletion as a reason, an SQL condition, and its arguments, in the order they run.
    func deletions(now: Int64, appVersion: String) -> [(LossReason, String, StatementArguments)] {
        var deletions: [(LossReason, String, StatementArguments)] = []
        if isUpdateClear { deletions.append((.appVersionCleared, "app_version != ?", [appVersion])) }
        let cutoff = now - Int64(expirationDays * 86_400_000)
        if let monitoredTypes {
            let types = String(decoding: (try? JSONValue.array(monitoredTypes.map(JSONValue.string)).jsonBytes()) ?? Array("[]".utf8), as: UTF8.self)
            deletions.append((.unmonitored, "created_time < ? AND monitor_type NOT IN (SELECT value FROM json_each(?))", [cutoff, types]))
        }
        deletions.append((expiryReason, "created_time < ?", [cutoff]))
        if let maxBodyBytes { deletions.append((.oversize, "size > ?", [maxBodyBytes])) }
        return deletions
    }
}
