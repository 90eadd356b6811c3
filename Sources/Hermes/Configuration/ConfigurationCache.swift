import Foundation
import HermesWire

/// The last good configuration on disk, under `<storage>/config/<appVersion>/`, so a restart
/// without network runs under the server's rules (specification §3).
struct ConfigurationCache: Sendable {
    let directory: URL

    init(storageDirectory: URL, appVersion: String) {
        directory = storageDirectory.appendingPathComponent("config").appendingPathComponent(appVersion)
    }

    private var documentFile: URL { directory.appendingPathComponent("config.json") }
    private var etagFile: URL { directory.appendingPathComponent("etag") }

    /// The cached document and its ETag, or `nil` when there is none or it does not decode.
    func load() -> (document: ConfigurationDocument, etag: String?)? {
        guard let data = try? Data(contentsOf: documentFile),
              let document = try? ConfigurationDocument(jsonBytes: Array(data)) else { return nil }
        let etag = (try? Data(contentsOf: etagFile)).map { String(decoding: $0, as: UTF8.self) }
        return (document.clamped().0, etag)
    }

    /// Stores a document and its ETag, each file replaced atomically.
    func save(_ document: ConfigurationDocument, etag: String?) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(document.jsonBytes()).write(to: documentFile, options: .atomic)
        if let etag {
            try Data(etag.utf8).write(to: etagFile, options: .atomic)
        } else if FileManager.default.fileExists(atPath: etagFile.path) {
            try FileManager.default.removeItem(at: etagFile)
        }
    }
}
