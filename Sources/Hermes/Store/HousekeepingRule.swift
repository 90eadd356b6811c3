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

    /// The rule for the rows of a namespace no configuration names: they expire after the
    /// default `expirationDay` and count as ``LossReason/orphaned``; nothing else deletes them.
    static let orphaned = HousekeepingRule(
        isUpdateClear: false, expirationDays: NamespaceConfiguration().expirationDay, maxBodyBytes: nil, expiryReason: .orphaned
    )

    /// Each deletion as a reason, an SQL condition with one argument, and that argument.
    func deletions(now: Int64, appVersion: String) -> [(LossReason, String, any DatabaseValueConvertible & Sendable)] {
        var deletions: [(LossReason, String, any DatabaseValueConvertible & Sendable)] = []
        if isUpdateClear { deletions.append((.appVersionCleared, "app_version != ?", appVersion)) }
        deletions.append((expiryReason, "created_time < ?", now - Int64(expirationDays * 86_400_000)))
        if let maxBodyBytes { deletions.append((.oversize, "size > ?", maxBodyBytes)) }
        return deletions
    }
}
