extension ConfigurationDocument {
    /// Decodes a configuration document from its JSON text.
    ///
    /// Unknown keys are ignored. A missing field takes the built-in default; a missing
    /// `monitorList` means the built-in list for `hermes` and an empty one for any other
    /// namespace. Numbers may be fractional; counts (`maxItem`, `maxCacheCount`, `flushCount`)
    /// are rounded down. Values are not clamped here: call ``clamped()``.
    /// - Parameter bytes: the document's UTF-8 JSON text.
    /// - Throws: ``HermesWireError/Code/malformedConfiguration`` naming the first field that is
    ///   not valid JSON or has the wrong type.
    public init(jsonBytes bytes: some Collection<UInt8>) throws(HermesWireError) {
        let root = try ConfigurationReader.parse(bytes)
        let reader = ConfigurationReader(path: "")
        let object = try reader.object(root)
        revision = try reader.int(object["revision"], "revision") ?? 0
        namespaces = [:]
        for (name, value) in try reader.object(object["namespaces"] ?? .object([:]), "namespaces") {
            guard !name.isEmpty else {
                throw HermesWireError(.malformedConfiguration, "configuration: a namespace name is empty")
            }
            namespaces[name] = try NamespaceConfiguration(json: value, name: name)
        }
    }

    /// The document as deterministic compact JSON with the wire's keys, as the server serves it
    /// and the client caches it.
    public func jsonBytes() -> [UInt8] {
        // Every value is finite after decoding or clamping; a NaN set in code is written as the default.
        let (safe, _) = clamped()
        let value: JSONValue = [
            "revision": .int(Int64(safe.revision)),
            "namespaces": .object(safe.namespaces.mapValues(\.json)),
        ]
        return (try? value.jsonBytes()) ?? []
    }
}

extension NamespaceConfiguration {
    /// Decodes one namespace's configuration from its JSON text, by the rules of
    /// ``ConfigurationDocument/init(jsonBytes:)``. Values are not clamped here.
    /// - Parameters:
    ///   - bytes: one namespace's configuration object as UTF-8 JSON.
    ///   - name: the namespace's name (a missing `monitorList` means the built-in list for `hermes`).
    /// - Throws: ``HermesWireError/Code/malformedConfiguration`` naming the first bad field.
    public init(jsonBytes bytes: some Collection<UInt8>, name: String) throws(HermesWireError) {
        try self.init(json: ConfigurationReader.parse(bytes), name: name)
    }

    /// Decodes one namespace's configuration; missing fields take the built-in defaults.
    init(json: JSONValue, name: String) throws(HermesWireError) {
        let reader = ConfigurationReader(path: "namespaces.\(name).")
        let object = try reader.object(json)
        let defaults = NamespaceConfiguration.hermesDefault
        if let url = object["url"], url != .null {
            self.url = try reader.string(url, "url")
        } else {
            self.url = object["url"] == .null ? nil : defaults.url
        }
        isUpload = try reader.bool(object["isUpload"], "isUpload") ?? defaults.isUpload
        isGather = try reader.bool(object["isGather"], "isGather") ?? defaults.isGather
        isUpdateClear = try reader.bool(object["isUpdateClear"], "isUpdateClear") ?? defaults.isUpdateClear
        maxBodyMByte = try reader.double(object["maxBodyMByte"], "maxBodyMByte") ?? defaults.maxBodyMByte
        periodicTimerSecond = try reader.double(object["periodicTimerSecond"], "periodicTimerSecond") ?? defaults.periodicTimerSecond
        maxItem = try reader.int(object["maxItem"], "maxItem") ?? defaults.maxItem
        maxFlowMByte = try reader.double(object["maxFlowMByte"], "maxFlowMByte") ?? defaults.maxFlowMByte
        expirationDay = try reader.double(object["expirationDay"], "expirationDay") ?? defaults.expirationDay
        maxCacheCount = try reader.int(object["maxCacheCount"], "maxCacheCount") ?? defaults.maxCacheCount
        flushCount = try reader.int(object["flushCount"], "flushCount") ?? defaults.flushCount
        maxMetaKByte = try reader.double(object["maxMetaKByte"], "maxMetaKByte") ?? defaults.maxMetaKByte
        if let list = object["monitorList"] {
            guard case .array(let items) = list else { throw reader.wrongType("monitorList", "an array") }
            monitorList = []
            for (index, item) in items.enumerated() {
                monitorList.append(try MonitorItem(json: item, path: "\(reader.path)monitorList[\(index)]."))
            }
        } else {
            monitorList = name == ConfigurationDocument.hermesNamespace ? defaults.monitorList : []
        }
        if let list = object["overrides"] {
            guard case .array(let items) = list else { throw reader.wrongType("overrides", "an array") }
            overrides = []
            for (index, item) in items.enumerated() {
                overrides.append(try ConfigurationOverride(json: item, path: "\(reader.path)overrides[\(index)]."))
            }
        }
    }

    /// The configuration as JSON with the wire's keys.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "isUpload": .bool(isUpload),
            "isGather": .bool(isGather),
            "isUpdateClear": .bool(isUpdateClear),
            "maxBodyMByte": .double(maxBodyMByte),
            "periodicTimerSecond": .double(periodicTimerSecond),
            "maxItem": .int(Int64(maxItem)),
            "maxFlowMByte": .double(maxFlowMByte),
            "expirationDay": .double(expirationDay),
            "maxCacheCount": .int(Int64(maxCacheCount)),
            "flushCount": .int(Int64(flushCount)),
            "maxMetaKByte": .double(maxMetaKByte),
            "monitorList": .array(monitorList.map(\.json)),
        ]
        object["url"] = url.map(JSONValue.string) ?? .null
        if !overrides.isEmpty { object["overrides"] = .array(overrides.map(\.json)) }
        return .object(object)
    }
}

extension ConfigurationOverride {
    init(json: JSONValue, path: String) throws(HermesWireError) {
        let (reader, object) = try ConfigurationReader.open(json, path: path)
        let set = try reader.object(object["set"] ?? .object([:]), "set")
        // The fields it sets must read as a namespace's.
        _ = try NamespaceConfiguration(json: .object(set.filter { $0.key != "overrides" }), name: "")
        self.init(
            name: try reader.nonEmptyString(object["name"], "name"), appVersions: try reader.strings(object["appVersions"], "appVersions"),
            deviceIDs: try reader.strings(object["deviceIDs"], "deviceIDs"), percentage: try reader.double(object["percentage"], "percentage"),
            set: set)
    }

    var json: JSONValue {
        var object: [String: JSONValue] = ["name": .string(name), "set": .object(set)]
        if !appVersions.isEmpty { object["appVersions"] = .array(appVersions.map(JSONValue.string)) }
        if !deviceIDs.isEmpty { object["deviceIDs"] = .array(deviceIDs.map(JSONValue.string)) }
        object["percentage"] = percentage.map(JSONValue.double)
        return .object(object)
    }
}

extension MonitorItem {
    init(json: JSONValue, path: String) throws(HermesWireError) {
        let (reader, object) = try ConfigurationReader.open(json, path: path)
        self.init(
            type: try reader.nonEmptyString(object["type"], "type"),
            onlyWifi: try reader.bool(object["onlyWifi"], "onlyWifi") ?? false,
            isRealtime: try reader.bool(object["isRealtime"], "isRealtime") ?? false,
            isUploadPayload: try reader.bool(object["isUploadPayload"], "isUploadPayload") ?? false,
            sampleRate: try reader.double(object["sampleRate"], "sampleRate") ?? 1
        )
    }

    var json: JSONValue {
        [
            "type": .string(type),
            "onlyWifi": .bool(onlyWifi),
            "isRealtime": .bool(isRealtime),
            "isUploadPayload": .bool(isUploadPayload),
            "sampleRate": .double(sampleRate),
        ]
    }
}

/// Reads typed fields out of configuration JSON, naming the field in every error.
struct ConfigurationReader {
    let path: String

    static func parse(_ bytes: some Collection<UInt8>) throws(HermesWireError) -> JSONValue {
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw HermesWireError(.malformedConfiguration, "configuration is not valid JSON: \(error.message)")
        }
    }

    func wrongType(_ field: String, _ expected: String) -> HermesWireError {
        HermesWireError(.malformedConfiguration, "configuration: \(path)\(field) must be \(expected)")
    }

    func object(_ value: JSONValue, _ field: String = "") throws(HermesWireError) -> [String: JSONValue] {
        guard case .object(let object) = value else {
            throw field.isEmpty && path.isEmpty
                ? HermesWireError(.malformedConfiguration, "configuration must be a JSON object")
                : wrongType(field.isEmpty ? String(path.dropLast()) : field, "an object")
        }
        return object
    }

    func bool(_ value: JSONValue?, _ field: String) throws(HermesWireError) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let bool) = value else { throw wrongType(field, "true or false") }
        return bool
    }

    func string(_ value: JSONValue?, _ field: String) throws(HermesWireError) -> String? {
        guard let value else { return nil }
        guard case .string(let string) = value else { throw wrongType(field, "a string") }
        return string
    }

    /// A reader at `path` and the object `json` must be there.
    static func open(_ json: JSONValue, path: String) throws(HermesWireError) -> (ConfigurationReader, [String: JSONValue]) {
        let reader = ConfigurationReader(path: path)
        return (reader, try reader.object(json))
    }

    /// A required string that is not empty.
    func nonEmptyString(_ value: JSONValue?, _ field: String) throws(HermesWireError) -> String {
        guard let string = try string(value, field), !string.isEmpty else {
            throw HermesWireError(.malformedConfiguration, "configuration: \(path)\(field) must be a non-empty string")
        }
        return string
    }

    func strings(_ value: JSONValue?, _ field: String) throws(HermesWireError) -> [String] {
        guard let value else { return [] }
        guard case .array(let items) = value else { throw wrongType(field, "an array of strings") }
        var strings: [String] = []
        for item in items {
            guard case .string(let string) = item else { throw wrongType(field, "an array of strings") }
            strings.append(string)
        }
        return strings
    }

    func double(_ value: JSONValue?, _ field: String) throws(HermesWireError) -> Double? {
        guard let value else { return nil }
        guard let number = value.doubleValue else { throw wrongType(field, "a number") }
        return number
    }

    /// A count: fractional values are rounded down; huge ones are held at ±10^12 so that the
    /// conversion to `Int` cannot trap (clamping then brings them into range).
    func int(_ value: JSONValue?, _ field: String) throws(HermesWireError) -> Int? {
        guard let number = try double(value, field) else { return nil }
        return Int(min(max(number, -1e12), 1e12).rounded(.down))
    }
}
