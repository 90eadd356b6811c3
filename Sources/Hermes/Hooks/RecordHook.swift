public import Foundation
public import HermesWire

/// A record as a hook sees it, before Hermes checks and stores it.
public struct HookedRecord: Sendable {
    /// The type passed to `send` (without the namespace prefix).
    public let type: String
    /// The namespace: `hermes` or a business prefix.
    public let namespace: String
    /// The caller's meta; a hook may change it (the common fields are added after the hooks).
    public var meta: [String: JSONValue]
    /// The attachment; a hook may change or remove it.
    public var payload: Data?
}

/// A closure that sees each record before it is stored, on the caller's thread: it may change
/// the meta or the payload (scrub personal data), or return `false` to drop the record.
public typealias RecordHook = @Sendable (inout HookedRecord) -> Bool

extension RecordBuilder.Input {
    /// Runs `hooks` in order on this record.
    /// - Returns: `false` when a hook dropped it (the later hooks do not run).
    mutating func apply(_ hooks: [RecordHook]) -> Bool {
        var record = HookedRecord(type: type, namespace: namespace, meta: meta, payload: payload)
        for hook in hooks {
            guard hook(&record) else { return false }
        }
        meta = record.meta
        payload = record.payload
        return true
    }
}

extension HermesClient {
    /// Adds a hook that sees every record of `namespace` (or, when `nil`, of every namespace)
    /// before it is checked and stored. Client hooks run first, then the namespace's, each in
    /// the order added, on the thread that called `send`; the common fields and global
    /// properties are added after them, so a hook can neither see nor change them.
    ///
    /// A dropped record is rejected with ``HermesError/Code/droppedByHook`` (logged at debug
    /// level) and is not counted in ``Diagnostics``: it was never stored.
    ///
    /// Cost: a hook runs inside `send`, so `send` takes as long as the hook more, plus copying
    /// the meta dictionary into the ``HookedRecord`` (no copy of its contents). A namespace
    /// without hooks pays nothing.
    ///
    /// ```swift
    /// client.addRecordHook { record in
    ///     record.meta["email"] = nil          // scrub
    ///     return record.type != "debugPing"   // drop
    /// }
    /// ```
    public func addRecordHook(namespace: String? = nil, _ hook: @escaping RecordHook) {
        profiles.update { settings in
            if let namespace {
                settings.namespaceHooks[namespace, default: []].append(hook)
            } else {
                settings.hooks.append(hook)
            }
        }
    }
}
