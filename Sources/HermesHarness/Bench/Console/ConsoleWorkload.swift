package import HermesCollector
package import HermesWire

/// What `hermes bench console` fills its store with: `records` records in 100-record batches, each
/// batch one device's upload of one namespace, spread over the 24 hours before `now`.
///
/// The mix: 40 % `hermes` records of the SDK's monitors (`appCrash` with a stack payload, 5 % of
/// them, of three signatures; `appLag`, `appBoot`, `net`, `netError` with the fields the console's
/// performance page reads; a few `sdkHealth`), 60 % business events of three namespaces with a few
/// meta keys each, among them ``campaignKey``, whose ``campaigns`` values each match about 1 % of
/// all records. 2,000 users taking turns to send a batch, each on one device with one of three
/// app versions, in half-hour sessions. A batch is built from its index alone (a generator seeded with it), so
/// batches can be built in any order, on any thread, when they are stored.
package struct ConsoleWorkload: Sendable {
    package static let recordsPerBatch = 100
    package static let users = 2_000
    package static let appVersions = ["2.3.0", "2.4.0", "2.5.0"]
    /// The business meta key the filtered page matches, and how many values it takes.
    package static let campaignKey = "campaign"
    package static let campaigns = 60
    /// The span of `CREATE_TIME`s and arrivals: the day before ``now``.
    package static let span: Int64 = 86_400_000

    /// One namespace's share of the batches and its types' shares of its records (per cent).
    private struct Mix {
        var namespace: String
        var batchShare: Int
        var types: [DemoScenario.Item]
    }

    private static let mixes: [Mix] = [
        Mix(
            namespace: RecordNamespace.monitoring, batchShare: 40,
            types: [
                item(MonitorType.appCrash, 5, payloadBytes: 1_500), item(MonitorType.appLag, 15), item(MonitorType.appBoot, 10),
                item(MonitorType.net, 62), item(MonitorType.netError, 6), item(sdkHealth, 2),
            ]),
        Mix(namespace: "JZ", batchShare: 25, types: [item("pay", 40), item("view", 60)]),
        Mix(namespace: "KX", batchShare: 20, types: [item("order", 40), item("search", 60)]),
        Mix(namespace: "QT", batchShare: 15, types: [item("view", 70), item("share", 30)]),
    ]

    /// The type of the SDKs' delivery-health records, which the overview reads.
    private static let sdkHealth = "sdkHealth"

    /// A type and its share (per cent) of its namespace's records, in the demo's terms.
    private static func item(_ type: String, _ share: Int, payloadBytes: Int = 0) -> DemoScenario.Item {
        DemoScenario.Item(namespace: "", type: type, count: share, payloadBytes: payloadBytes)
    }

    /// How many records the store gets.
    package let records: Int
    /// The end of the span, in milliseconds since 1970: every record was made and received before it.
    package let now: Int64

    package init(records: Int, now: Int64) {
        self.records = records
        self.now = now
    }

    /// How many batches hold ``records``; the last may be short.
    package var batchCount: Int { (records + Self.recordsPerBatch - 1) / Self.recordsPerBatch }

    /// The batch at `index` (`0..<batchCount`), the same every time.
    package func batch(_ index: Int) throws -> IngestBatch {
        var random = SplitMix64(seed: UInt64(index) &* 0x2545_F491_4F6C_DD1D)
        let mix = Self.pick(Self.mixes, share: \.batchShare, random: &random)
        let user = index % Self.users
        let device = "device-\(user)"
        let sent = now - 5_000 - Int64(random.next() % UInt64(Self.span - 125_000))
        let common: [String: JSONValue] = [
            RecordField.namespace: .string(mix.namespace), RecordField.isBusiness: .bool(RecordNamespace.isBusiness(mix.namespace)),
            RecordField.userID: .string(Self.user(user)), RecordField.deviceID: .string(device),
            RecordField.sessionID: .string("session-\(user)-\(sent / 1_800_000)"),
            RecordField.appVersion: .string(Self.appVersions[user % Self.appVersions.count]),
        ]
        let count = min(Self.recordsPerBatch, records - index * Self.recordsPerBatch)
        let ingest = try (0..<count).map { offset -> IngestRecord in
            let item = Self.pick(mix.types, share: \.count, random: &random)
            let reportID = "\(mix.namespace)-\(index)-\(offset)"
            let type = RecordNamespace.storedType(item.type, in: mix.namespace)
            let createTime = sent - Int64(random.next() % 120_000)
            var meta = Self.fields(item, in: mix.namespace, index: index + offset, random: &random).merging(common) { _, common in common }
            meta[RecordField.reportID] = .string(reportID)
            meta[RecordField.monitorType] = .string(type)
            meta[RecordField.createTime] = .int(createTime)
            let payload =
                item.payloadBytes > 0 ? Array(DemoScenario.stack(bytes: item.payloadBytes, index: index + offset, random: &random)) : nil
            return IngestRecord(
                namespace: mix.namespace, reportID: reportID, monitorType: type, createTime: createTime, meta: try JSONValue.object(meta).jsonBytes(),
                payload: payload)
        }
        return IngestBatch(records: ingest, deviceID: device, batchID: "console-bench-\(index)", receivedAt: sent + Int64(random.next() % 3_000))
    }

    /// A record's own meta fields: the demo's for its type; a business event's campaign; a
    /// delivery-health report's losses and queue depth.
    private static func fields(_ item: DemoScenario.Item, in namespace: String, index: Int, random: inout SplitMix64) -> [String: JSONValue] {
        if item.type == sdkHealth {
            return ["lost": ["bufferFull": .int(Int64(random.next() % 3))], "queueDepth": .int(Int64(random.next() % 400))]
        }
        var fields = DemoScenario.meta(item, index, random: &random)
        if RecordNamespace.isBusiness(namespace) { fields[campaignKey] = .string(campaign(Int(random.next() % UInt64(campaigns)))) }
        return fields
    }

    /// The `USER_ID` of user number `index`, who sends batches `index`, `index + users`, ….
    package static func user(_ index: Int) -> String { "user-\(index)" }

    /// The value of ``campaignKey`` number `index`.
    package static func campaign(_ index: Int) -> String { "spring-\(index)" }

    /// One of `choices`, each as likely as its share of the shares' sum.
    private static func pick<Choice>(_ choices: [Choice], share: KeyPath<Choice, Int>, random: inout SplitMix64) -> Choice {
        var roll = Int(random.next() % UInt64(choices.reduce(0) { $0 + $1[keyPath: share] }))
        for choice in choices {
            roll -= choice[keyPath: share]
            if roll < 0 { return choice }
        }
        return choices[choices.count - 1]
    }
}
