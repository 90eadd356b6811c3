import Foundation
import HermesWire

/// The last good configuration on disk, under `<storage>/config/<appVersion>/`, so a restart
/// without network runs under the server's rules (specification §3).
struct ConfigurationCache: Sendable {
    /// `<storage>/config`: one folder per app version.
    let root: URL
    let appVersion: String

    init(storageDirectory: URL, appVersion: String) {
        root = storageDirectory.appendingPathComponent("config")
        self.appVersion = appVersion
    }

    /// This app version's folder.
    var directory: URL { root.appendingPathComponent(appVersion) }

    private static func documentFile(in directory: URL) -> URL { directory.appendingPathComponent("config.json") }
    private var etagFile: URL { directory.appendingPathComponent("etag") }

    /// The cached document and its ETag, or `nil` when there is none or it does not decode.
    func load() -> (document: ConfigurationDocument, etag: String?)? {
        guard let document = Self.document(in: directory) else { return nil }
        let etag = (try? Data(contentsOf: etagFile)).map { String(decoding: $0, as: UTF8.self) }
        return (document, etag)
    }

    /// The document another app version cached last (by the file's modification date): after an
    /// upgrade, the server's latest word that this device knows; `nil` when no other version
    /// left a readable one.
    func loadPreviousVersion() -> ConfigurationDocument? {
        let folders = (try? FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)) ?? []
        let candidates = folders.filter { $0.lastPathComponent != appVersion }.compactMap { folder -> (Date, String, URL)? in
            let file = Self.documentFile(in: folder)
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date else { return nil }
            return (modified, folder.lastPathComponent, folder)
        }
        // Newest first; the version name breaks a tie so that the choice never depends on listing order.
        for (_, _, folder) in candidates.sorted(by: { ($0.0, $0.1) > ($1.0, $1.1) }) {
            if let document = Self.document(in: folder) { return document }
        }
        return nil
    }

    /// Stores a document and its ETag, each file replaced atomically.
    func save(_ document: ConfigurationDocument, etag: String?) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(document.jsonBytes()).write(to: Self.documentFile(in: directory), options: .atomic)
        if let etag {
            try Data(etag.utf8).write(to: etagFile, options: .atomic)
        } else if FileManager.default.fileExists(atPath: etagFile.path) {
            try FileManager.default.removeItem(at: etagFile)
        }
    }

    /// Deletes every app version's cached document.
    func deleteAll() throws {
        guard FileManager.default.fileExists(atPath: root.path) else { return }
        try FileManager.default.removeItem(at: root)
    }

    /// The clamped document in `directory`, or `nil` when there is none or it does not decode.
    private static func document(in directory: URL) -> ConfigurationDocument? {
        guard let data = try? Data(contentsOf: documentFile(in: directory)),
            let document = try? ConfigurationDocument(jsonBytes: Array(data))
        else { return nil }
        return document.clamped().0
    }
}
