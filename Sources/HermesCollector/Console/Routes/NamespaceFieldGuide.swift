import HermesWire

/// What the namespace editor shows beside each field: its range, its default and one line of
/// help. The ranges are the ones clamping applies (`NamespaceConfiguration.limitsByField`).
enum NamespaceFieldGuide {
    static let help: [String: String] = [
        "isUpload": "Upload stored records. Off: records are kept on the device and sent later.",
        "isGather": "Accept new records. Off: send() refuses them at once.",
        "isUpdateClear": "Delete stored records of other app versions when the app starts.",
        "maxBodyMByte": "The largest upload body, and the largest payload accepted, in MB.",
        "periodicTimerSecond": "Seconds between periodic uploads.",
        "maxItem": "The most records in one upload.",
        "maxFlowMByte": "Cellular bytes allowed per 24 hours, in MB.",
        "expirationDay": "Days a stored record is kept before it is deleted unsent.",
        "maxCacheCount": "Records kept on the device before the oldest 100 are evicted.",
        "flushCount": "Pending records that trigger an upload.",
        "maxMetaKByte": "The largest encoded meta accepted, in KB.",
        "sampleRate": "The share of this type's records kept, 0 to 1 (per monitor item).",
        "onlyWifi": "Upload this type only on Wi-Fi (per monitor item).",
        "isRealtime": "Upload this type at once rather than with the next batch (per monitor item).",
        "isUploadPayload": "Send this type's payloads (per monitor item).",
    ]

    /// Every field's guide, as the console's namespace API sends it.
    static var json: JSONValue {
        let defaults = NamespaceConfiguration.hermesDefault.json
        let ranged = Dictionary(uniqueKeysWithValues: NamespaceConfiguration.limitsByField.map { ($0.field, $0.limit) })
        return .array(
            help.keys.sorted().map { field in
                var guide: [String: JSONValue] = ["name": .string(field), "help": .string(help[field] ?? "")]
                guide["default"] = defaults[field] ?? (field == "sampleRate" ? .double(1) : field == "isUploadPayload" ? .bool(true) : .bool(false))
                if let limit = ranged[field] {
                    guide["lower"] = .double(limit.lower)
                    guide["lowerIsOpen"] = .bool(limit.lowerIsOpen)
                    guide["upper"] = .double(limit.upper)
                }
                return .object(guide)
            })
    }
}
