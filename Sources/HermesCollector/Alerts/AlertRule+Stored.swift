import Foundation

extension AlertRule {
    /// The kind as a store keeps it: its JSON object's text, keys sorted.
    package var storedKind: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // A name, integers and a string: encoding cannot fail.
        return String(decoding: (try? encoder.encode(kind)) ?? Data(), as: UTF8.self)
    }

    /// A rule read from a store's row.
    /// - Parameter storedKind: the kind's JSON text.
    /// - Throws: ``CollectorError/Code/storageFailed`` if the kind is unreadable.
    package init(
        id: String, name: String, storedKind: String, isEnabled: Bool, webhookURL: String?, secret: String,
        createdBy: String, createdAt: Int64, updatedBy: String, updatedAt: Int64
    ) throws(CollectorError) {
        let kind: AlertKind
        do {
            kind = try JSONDecoder().decode(AlertKind.self, from: Data(storedKind.utf8))
        } catch {
            throw CollectorError(.storageFailed, "the stored kind of alert rule \(id) is unreadable", underlying: error)
        }
        self.init(
            id: id, draft: AlertRuleDraft(name: name, kind: kind, isEnabled: isEnabled, webhookURL: webhookURL), secret: secret,
            createdBy: createdBy, createdAt: createdAt, updatedBy: updatedBy, updatedAt: updatedAt)
    }
}
