import Foundation

/// The data protection class of the files Hermes writes (the store and the journal) on Apple
/// platforms; elsewhere it has no effect.
///
/// The default, ``completeUntilFirstUserAuthentication``, keeps the files readable while the
/// device is locked after its first unlock, so records sent from the background are stored.
public enum FileProtection: Sendable, Hashable {
    /// Readable only while the device is unlocked.
    case complete
    /// Readable after the first unlock since boot (the default).
    case completeUntilFirstUserAuthentication
    /// No protection beyond the device's.
    case none

    /// Applies the class to the journal folder (new segment files inherit it) and keeps the
    /// folder out of backups: its contents are transient copies of records on their way to the store.
    func apply(toJournal directory: URL) {
        #if canImport(Darwin)
        var url = directory
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try? url.setResourceValues(values)
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.setAttributes([.protectionKey: protectionType], ofItemAtPath: directory.path)
        #endif
        #endif
    }

    /// Applies the class to the storage folder, whose new files (the store) inherit it.
    func apply(toStorage directory: URL) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.setAttributes([.protectionKey: protectionType], ofItemAtPath: directory.path)
        #endif
    }

    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    private var protectionType: FileProtectionType {
        switch self {
        case .complete: .complete
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        case .none: .none
        }
    }
    #endif
}
