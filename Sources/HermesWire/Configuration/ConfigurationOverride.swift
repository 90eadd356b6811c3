/// A part of a namespace's configuration that applies to some devices only: those of certain app
/// versions, certain device ids, or a share of all devices (a staged rollout), or any mix of
/// these (every condition given must hold). The collector resolves overrides for each device
/// that fetches the document (``ConfigurationDocument/resolved(for:)``); the SDK never sees them.
///
/// In the namespace's JSON:
///
/// ```json
/// "overrides": [
///   {"name": "sampling-rollout", "percentage": 10, "set": {"monitorList": [{"type": "net", "sampleRate": 1}]}},
///   {"name": "old-app", "appVersions": ["2.0.0", "2.0.1"], "set": {"isUpload": false}},
///   {"name": "qa-ipad", "deviceIDs": ["6F9619FF-8B86-D011-B42D-00C04FC964FF"], "set": {"periodicTimerSecond": 1}}
/// ]
/// ```
///
/// `set` holds any of the namespace's fields but `overrides`, whole: a `monitorList` replaces the
/// list. Matching overrides apply in order, a later one over an earlier one.
public struct ConfigurationOverride: Sendable, Hashable {
    /// Names the override: in the editor, and in the draw of its percentage (renaming it draws
    /// its devices again).
    public var name: String
    /// The app versions it applies to; empty: any.
    public var appVersions: [String]
    /// The device ids it applies to; empty: any.
    public var deviceIDs: [String]
    /// The share of devices it applies to, 0 to 100, drawn once per device (the same device is
    /// in or out at every fetch); `nil`: every device.
    public var percentage: Double?
    /// The fields it sets.
    public var set: [String: JSONValue]

    /// An override.
    public init(name: String, appVersions: [String] = [], deviceIDs: [String] = [], percentage: Double? = nil, set: [String: JSONValue]) {
        self.name = name
        self.appVersions = appVersions
        self.deviceIDs = deviceIDs
        self.percentage = percentage
        self.set = set
    }

    /// Whether it applies to `target` in `namespace`. A condition on device ids or a percentage
    /// needs the device's id: a fetch without one matches neither.
    public func applies(to target: ConfigurationTarget, namespace: String) -> Bool {
        if !appVersions.isEmpty, !appVersions.contains(target.appVersion ?? "") { return false }
        if !deviceIDs.isEmpty, !deviceIDs.contains(target.deviceID ?? "") { return false }
        if let percentage {
            guard let deviceID = target.deviceID else { return false }
            return Double(Self.bucket(namespace: namespace, name: name, deviceID: deviceID)) < percentage * 100
        }
        return true
    }

    /// The device's place among 10,000 for this override: FNV-1a of the namespace, the name and
    /// the device id, so that it is the same on every collector and at every fetch.
    public static func bucket(namespace: String, name: String, deviceID: String) -> UInt64 {
        fnv1a("\(namespace)\u{0}\(name)\u{0}\(deviceID)") % 10_000
    }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8: stable across processes and platforms.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// Who fetches the configuration: the device id and app version its request carries
/// (`X-Hermes-Device-Id`, `X-Hermes-App-Version`).
public struct ConfigurationTarget: Sendable, Hashable {
    public var deviceID: String?
    public var appVersion: String?

    /// A target.
    public init(deviceID: String?, appVersion: String?) {
        self.deviceID = deviceID
        self.appVersion = appVersion
    }
}

extension ConfigurationDocument {
    /// The document as `target` gets it: each namespace with the overrides that apply to it laid
    /// over, and none left; and the names of those overrides (`namespace/name`, sorted), which
    /// the collector folds into the answer's ETag.
    public func resolved(for target: ConfigurationTarget) -> (ConfigurationDocument, applied: [String]) {
        var result = self
        var applied: [String] = []
        for (name, configuration) in namespaces where !configuration.overrides.isEmpty {
            var base = configuration
            base.overrides = []
            var fields = base.json.objectValue ?? [:]
            for override in configuration.overrides where override.applies(to: target, namespace: name) {
                fields.merge(override.set.filter { $0.key != "overrides" }) { _, new in new }
                applied.append("\(name)/\(override.name)")
            }
            // A `set` that does not read as configuration leaves the namespace as it was.
            result.namespaces[name] = (try? NamespaceConfiguration(json: .object(fields), name: name)) ?? base
        }
        return (result, applied.sorted())
    }
}
