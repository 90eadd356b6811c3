import Foundation
import HermesWire

extension CrashGroupSummary {
    /// A summary from a row of ``CrashGroupQueries/summaries(_:oneGroup:)``, its app versions
    /// read from their JSON array and put in version order.
    package init(
        signature: String, title: String, culprit: String?, count: Int, usersAffected: Int, firstSeen: Int64, lastSeen: Int64,
        versionsJSON: String?
    ) {
        var names = Set<String>()
        if case .array(let versions)? = versionsJSON.flatMap({ try? JSONValue(parsing: Array($0.utf8)) }) {
            names.formUnion(versions.compactMap(\.stringValue))
        }
        self.init(
            signature: signature, title: title, culprit: culprit, count: count, usersAffected: usersAffected, firstSeen: firstSeen,
            lastSeen: lastSeen, appVersions: names.sorted(by: Self.versionOrder)
        )
    }

    /// Whether version `first` comes before `second`: numbers compared as numbers (`1.9` before
    /// `1.10`), text that compares equal so (`1.0`, `1.00`) by its bytes.
    static func versionOrder(_ first: String, _ second: String) -> Bool {
        switch first.compare(second, options: .numeric) {
        case .orderedAscending: true
        case .orderedDescending: false
        case .orderedSame: first < second
        }
    }
}
