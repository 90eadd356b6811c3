import Foundation

/// What of the identity outlives the process, in `<storage>/identity.json` (replaced
/// atomically), beside the device id and apart from the store: a store moved aside as corrupt
/// loses neither the anonymous id, the user nor the consent.
struct IdentityFile: Sendable {
    /// The file's content.
    struct Stored: Codable, Sendable, Hashable {
        var anonymousID: String
        var userID: String?
        var consent: Consent
    }

    static let fileName = "identity.json"
    let url: URL

    init(storageDirectory: URL) {
        url = storageDirectory.appendingPathComponent(Self.fileName)
    }

    /// The stored identity, or `nil` when there is none or it cannot be read.
    func load() -> Stored? {
        guard let data = try? Data(contentsOf: url), let stored = try? JSONDecoder().decode(Stored.self, from: data),
            UUID(uuidString: stored.anonymousID) != nil
        else { return nil }
        return stored
    }

    /// Replaces the file.
    func save(_ stored: Stored) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try encoder.encode(stored).write(to: url, options: .atomic)
    }
}
