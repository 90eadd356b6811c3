import Foundation
import HermesWire

/// The checks and the meta building of `send`, in the order of specification §4, as a pure function of
/// its inputs: the caller supplies the configuration, the sampling draw, the time and the id.
struct RecordBuilder: Sendable {
    /// The fields that are the same for every record of this client.
    let app: HermesClient.AppInfo
    let deviceID: String
    private let device: DeviceInfo
    private let encoder: MetaEncoder

    /// - Parameters:
    ///   - identity: `USER_ID`, `ANON_ID` and `SESSION_ID`; `nil` leaves them out.
    ///   - properties: global properties, under the caller's meta.
    init(
        app: HermesClient.AppInfo, device: DeviceInfo, deviceID: String, identity: RecordIdentity? = nil,
        properties: [String: JSONValue] = [:]
    ) {
        self.app = app
        self.deviceID = deviceID
        self.device = device
        var constant: [String: JSONValue] = [
            RecordField.appName: .string(app.name),
            RecordField.appVersion: .string(app.version),
            RecordField.appBuild: .string(app.build),
            RecordField.deviceID: .string(deviceID),
            RecordField.osName: .string(device.osName),
            RecordField.osVersion: .string(device.osVersion),
            RecordField.deviceModel: .string(device.model),
            RecordField.sdkVersion: .string(HermesClient.sdkVersion),
        ]
        if let identity { constant.merge(identity.fields) { _, new in new } }
        encoder = MetaEncoder(constant: constant, properties: properties)
    }

    /// The common fields that are the same for every record it builds.
    var commonFields: [String: JSONValue] { encoder.constant }

    /// The same builder with another identity and other global properties (its common fields
    /// encoded again, once).
    func with(identity: RecordIdentity, properties: [String: JSONValue]) -> RecordBuilder {
        RecordBuilder(app: app, device: device, deviceID: deviceID, identity: identity, properties: properties)
    }

    /// What `send` was called with.
    struct Input {
        var type: String
        var namespace: String
        var meta: [String: JSONValue]
        var payload: Data?
    }

    /// A record that passed the checks, and whether its type is realtime. A type of its own, not
    /// a tuple: `send` ends one per record, and a tuple's end goes through the runtime's generic
    /// tuple code.
    struct Built {
        var record: PendingRecord
        var isRealtime: Bool
    }

    /// Validates `input` and builds its record (specification §4 steps 1–6).
    /// - Parameters:
    ///   - rules: the namespace's configuration as `send` reads it, or `nil` when it has none.
    ///   - draw: a uniform random number in `0..<1` for the type's sample rate.
    ///   - now: milliseconds since 1970, for `CREATE_TIME`.
    ///   - reportID: the new record's `REPORT_ID`.
    /// - Returns: the record, and whether its type is realtime.
    /// - Throws: why the record is refused, with the error code of its check.
    func build(
        _ input: Input,
        rules: SendRules?,
        draw: () -> Double,
        now: Int64,
        reportID: String
    ) throws(HermesError) -> Built {
        // 1. Shape of the call.
        guard !input.namespace.isEmpty else { throw HermesError(.emptyPrefix, "a business record needs a non-empty prefix") }
        guard !input.type.isEmpty else { throw HermesError(.emptyType, "a record needs a non-empty type") }
        // The collector refuses these per record: say so now, with the same rule (checked once
        // per configuration for the namespace and its listed types).
        let rule = rules?.rule(for: input.type)
        if let problem = Self.textProblem(input, rules, rule) { throw HermesError(.invalidText, problem.message) }
        guard !input.meta.isEmpty else { throw HermesError(.emptyMeta, "a record of type \(input.type) needs a non-empty meta") }
        guard let rules else {
            throw HermesError(
                .namespaceNotConfigured, "namespace \(input.namespace) has no configuration: register a default or configure it on the server")
        }
        let configuration = rules.configuration
        // 2. The namespace gathers.
        guard configuration.isGather else {
            throw HermesError(.notGathering, "namespace \(input.namespace) does not gather records (isGather is off)")
        }
        // 3. The type is monitored and sampled in.
        guard let rule else {
            throw HermesError(.typeNotMonitored, "type \(input.type) is not in the monitorList of namespace \(input.namespace)")
        }
        let item = rule.item
        guard item.sampleRate >= 1 || draw() < item.sampleRate else {
            throw HermesError(.sampledOut, "type \(input.type) was not sampled (sampleRate \(item.sampleRate))")
        }
        // 4. The meta with the common fields.
        let monitorType = rule.storedType
        let isBusiness = rules.isBusiness
        let varying = MetaEncoder.Varying(
            reportID: reportID, createTime: now, monitorType: monitorType, isBusiness: isBusiness, namespace: input.namespace
        )
        let metaBytes: [UInt8]
        do {
            metaBytes = try encoder.encode(user: input.meta, varying: varying, type: input.type)
        } catch {
            throw HermesError(.invalidMeta, "meta of type \(input.type) cannot be written as JSON: \(error.message)")
        }
        // 5. Sizes: the meta, then the record as stored (meta plus payload), which is what an
        // upload batch must fit, so that nothing accepted here is later dropped as oversize.
        guard metaBytes.count <= configuration.maxMetaBytes else {
            throw HermesError(
                .metaTooLarge,
                "meta of type \(input.type) is \(metaBytes.count) bytes; namespace \(input.namespace) accepts at most \(configuration.maxMetaBytes) (maxMetaKByte)"
            )
        }
        let storedSize = metaBytes.count + (input.payload?.count ?? 0)
        guard storedSize <= configuration.maxBodyBytes else {
            let limit = "namespace \(input.namespace) stores records of at most \(configuration.maxBodyBytes) bytes (maxBodyMByte)"
            guard let payload = input.payload else {
                throw HermesError(.metaTooLarge, "meta of type \(input.type) is \(metaBytes.count) bytes; \(limit)")
            }
            throw HermesError(
                .payloadTooLarge,
                "record of type \(input.type) is \(storedSize) bytes (meta \(metaBytes.count) + payload \(payload.count)); \(limit)")
        }
        // 6. The record for its table.
        let record = PendingRecord(
            reportID: reportID, namespace: input.namespace, monitorType: monitorType, isBusiness: isBusiness,
            createdTime: now, appVersion: app.version, meta: metaBytes, payload: input.payload
        )
        return Built(record: record, isRealtime: item.isRealtime)
    }

    /// Why the type or the namespace of `input` may not be stored: the check made with `rules`
    /// when they list the type, made now otherwise.
    private static func textProblem(_ input: Input, _ rules: SendRules?, _ rule: SendRules.TypeRule?) -> HermesWireError? {
        let typeProblem = rule.map(\.problem) ?? CheckedText.problem(input.type, name: "type")
        return typeProblem ?? (rules.map(\.namespaceProblem) ?? CheckedText.problem(input.namespace, name: "prefix"))
    }
}
