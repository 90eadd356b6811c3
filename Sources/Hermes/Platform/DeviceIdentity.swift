import Foundation
import Logging

/// The installation's `DEVICE_ID`: a UUID made once and kept in `<storage>/device-id`.
enum DeviceIdentity {
    /// Reads the stored id, or makes and stores a new one. When the folder cannot be written the
    /// id lives for this run only (logged once), and the next run tries again.
    static func load(in directory: URL, logger: Logger) -> String {
        let file = directory.appendingPathComponent("device-id")
        if let data = try? Data(contentsOf: file),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            UUID(uuidString: text) != nil
        {
            return text
        }
        let id = UUID().uuidString
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(id.utf8).write(to: file, options: .atomic)
        } catch {
            logger.warning("hermes: cannot persist the device id; using one for this run only", metadata: ["error": "\(error)"])
        }
        return id
    }
}
