import CHermesCrash
import Foundation
import HermesWire
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's crash handler and the files it writes. A process has one handler: the first
/// client that starts with crash capture installs it, writing into its storage folder's
/// `crashes/` (`<pid>-<ms>.crash`, written only by the handler, and `<pid>-<ms>.images`, the
/// loaded images at install time, to symbolicate with at the next start).
enum CrashCapture {
    /// The report file this process's handler writes, once installed.
    private static let installed = Locked<URL?>(nil)

    /// The passes over pending reports running now, by storage folder.
    private static let passes = Locked<[String: Task<Void, Never>]>([:])

    /// The pass over `storage`'s pending reports that is running, or a new one running `work`.
    static func pass(for storage: URL, _ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let key = storage.standardizedFileURL.path
        return passes.withLock { passes in
            if let running = passes[key] { return running }
            let task = Task {
                await work()
                _ = Self.passes.withLock { $0.removeValue(forKey: key) }
            }
            passes[key] = task
            return task
        }
    }

    /// The folder of crash reports inside a client's storage folder.
    static func directory(in storage: URL) -> URL {
        storage.appendingPathComponent("crashes", isDirectory: true)
    }

    /// The reports an earlier run left in `storage`: every `.crash` file but this process's
    /// own, and every `.symbolicating` one (a report whose symbolication a run did not survive).
    static func crashedPIDs(in storage: URL) -> Set<Int64> {
        Set(pendingReports(in: storage).compactMap { (try? String(contentsOf: $0, encoding: .utf8)).flatMap(CrashReport.init(text:))?.pid })
    }

    static func pendingReports(in storage: URL) -> [URL] {
        let directory = directory(in: storage)
        let own = installed.withLock { $0?.standardizedFileURL }
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.filter {
            ($0.pathExtension == "crash" && $0.standardizedFileURL != own) || $0.pathExtension == symbolicating
        }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The extension a report takes while it is symbolicated: if the process dies then, the
    /// next start sends it with raw addresses instead of symbolicating it again (no crash loop).
    static let symbolicating = "symbolicating"

    /// Installs the handler writing into `storage`, unless this process has one already.
    /// - Parameter now: milliseconds since 1970, to name the report file.
    /// - Returns: `nil` once installed (now or before), or why it could not be.
    static func install(in storage: URL, now: Int64) -> String? {
        installed.withLock { installed in
            guard installed == nil else { return nil }
            let directory = directory(in: storage)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                return "cannot create \(directory.path): \(error)"
            }
            let stem = directory.appendingPathComponent("\(getpid())-\(now)")
            let report = stem.appendingPathExtension("crash")
            let images = stem.appendingPathExtension("images")
            if let failure = writeImages(to: images) { return failure }
            if let failure = reason(hermes_crash_install(report.path), "install the handler") { return failure }
            installed = report
            return nil
        }
    }

    /// Lists the loaded images again (call it after loading libraries with `dlopen`), so their
    /// frames can be named too.
    static func refreshImages() {
        installed.withLock { report in
            guard let report else { return }
            _ = writeImages(to: imagesFile(of: report))
        }
    }

    /// Writes the images loaded now to `file` (replacing it), one `image` line each.
    /// - Returns: `nil`, or why it could not.
    static func writeImages(to file: URL) -> String? {
        reason(hermes_crash_write_images(file.path), "write the image list")
    }

    /// The image list that goes with a report.
    static func imagesFile(of report: URL) -> URL {
        report.deletingPathExtension().appendingPathExtension("images")
    }

    private static func reason(_ code: Int32, _ action: String) -> String? {
        code == 0 ? nil : "cannot \(action): \(String(cString: strerror(code)))"
    }
}
