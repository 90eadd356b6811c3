import HermesWire

/// What one fuzz input exercises, picked by its first byte modulo the number of targets (so
/// every byte picks one). The raw values are the selector bytes of the seed corpus
/// (`Fuzz/seed_corpus.py`) and of `Tests/HermesWireTests/Packet/FuzzRegressionTests.swift`.
enum FuzzTarget: UInt8, CaseIterable {
    /// A v1 meta body, as `POST /v1/upload/meta` with version header 1 reads it.
    case v1Meta
    /// A v1 payload body, as `POST /v1/upload/payload` with version header 1 reads it.
    case v1Payload
    /// A v2 meta body with version header 2.
    case v2Meta
    /// A v2 payload body with version header 2.
    case v2Payload
    /// A body with no version header: `PacketDecoder.version(of:)`, then `decode(_:kind: nil)`.
    case sniffed
    /// A configuration document: decoded, clamped, re-encoded with `jsonBytes()` and decoded again.
    case configuration
    /// The plaintext of a v1 meta body (a gzip stream), sealed here with the v1 key. The v1 key
    /// ships in every app, so anyone can send this; the fuzzer cannot forge it through the cipher.
    case sealedGzip
    /// The meta lines of a v1 meta body, compressed and sealed here: the meta-line JSON the
    /// collector parses, which the fuzzer cannot reach through gzip's checksum either.
    case sealedMetaBlock
    /// The payload slots of a v2 payload body made here from the input (a slot count, then the
    /// slots' bytes), sealed with the v2 key and decoded within tight ``PacketLimits``: the
    /// slot decoder past authentication, and the limits, which must refuse exactly what passes them.
    case payloadSlots
    /// A sync request body, as `POST /v1/sync` reads it: parsed, and a parsed one re-encoded and
    /// parsed again unchanged, its `clientID` free of NUL. The same bytes read as an answer, as a
    /// device reads one: straight from the bytes and through `JSONValue`, the same answer or both
    /// refused.
    case syncRequest
    /// A meta line checked both ways the collector checks one: built whole (a deployment's rule
    /// reads it), and only its checked fields and a few members built. Both must give the same
    /// fields or the same rejection, and the members kept must equal the whole meta's.
    case metaCheck

    /// The target `selector` picks.
    init(selector: UInt8) {
        self = Self.allCases[Int(selector) % Self.allCases.count]
    }

    /// Runs `data` through this target's decoder, and checks what the decoder returns.
    func run(_ data: [UInt8]) {
        switch self {
        case .v1Meta: Self.decodePacket(data, kind: .meta, version: 1)
        case .v1Payload: Self.decodePacket(data, kind: .payload, version: 1)
        case .v2Meta: Self.decodePacket(data, kind: .meta, version: 2)
        case .v2Payload: Self.decodePacket(data, kind: .payload, version: 2)
        case .sniffed: Self.decodePacket(data, kind: nil, version: nil)
        case .configuration: Self.roundTripConfiguration(data)
        case .sealedGzip: Self.decodePacket(Self.sealV1(data), kind: .meta, version: 1)
        case .sealedMetaBlock:
            guard let compressed = try? Gzip.compress(data) else { preconditionFailure("gzip failed to compress") }
            Self.decodePacket(Self.sealV1(compressed), kind: .meta, version: 1)
        case .payloadSlots: Self.decodeSlots(data)
        case .syncRequest: Self.roundTripSyncRequest(data)
        case .metaCheck: Self.checkBothWays(data)
        }
    }

    /// The members ``metaCheck`` keeps beside the checked fields: ones the collector reads.
    static let keptNames = ["USER_ID", "durationMs", "lost", "status"]
    static let kept = RecordCheck.KeptMembers(alsoKeeping: keptNames)

    /// Checks `line` building all of it and building only ``kept``, and compares the two.
    private static func checkBothWays(_ line: [UInt8]) {
        let whole = RecordCheck.check(metaLine: line, namespace: "JZ")
        let some = RecordCheck.check(metaLine: line, namespace: "JZ", keeping: kept)
        switch (whole, some) {
        case (.valid(let fields, let meta), .valid(let keptFields, let keptMeta)):
            precondition(fields == keptFields, "the checked fields differ between the two checks")
            for name in RecordCheck.fields.map(\.name) + keptNames {
                precondition(keptMeta[kept.slot(name)] == meta[name], "member \(name) differs between the two checks")
            }
        case (.rejected(let reportID, let error), .rejected(let keptReportID, let keptError)):
            precondition(reportID == keptReportID && error.code == keptError.code, "the two checks reject differently")
        default:
            preconditionFailure("one check accepts the line and the other rejects it")
        }
    }

    /// The keys of the committed test vectors (`Tests/HermesWireTests/Vectors/vectors.json`),
    /// so the seeds made from them decode to their records; and an HPKE key, so that HPKE
    /// opening is fuzzed too.
    static let v1Cipher = try! AESCBCCipher(key: Array(0x00...0x0F), iv: Array(0x10...0x1F))
    static let decoder = PacketDecoder(
        keyring: Keyring([
            v1Cipher,
            try! AESGCMCipher(key: Array(0x00...0x0F), keyID: 7),
            try! HPKECipher(privateRawKey: Array(0x20...0x3F), keyID: 7),
        ]))

    /// `plaintext` sealed as a v1 block is: what a sender holding the app's v1 key can send.
    private static func sealV1(_ plaintext: [UInt8]) -> [UInt8] {
        guard let sealed = try? v1Cipher.seal(plaintext, authenticating: []) else { preconditionFailure("AES-CBC failed to seal") }
        return sealed
    }

    /// Decodes a body as the collector does, then checks what a decoded packet promises: the
    /// version and kind it was read as, at least one record, one payload slot per meta line
    /// (payload packets), meta lines that are not empty and hold no newline, and meta lines that
    /// survive JSON parse → encode → parse.
    private static func decodePacket(_ body: [UInt8], kind: PacketKind?, version: UInt8?) {
        guard let decoded = try? decoder.decode(body, kind: kind, version: version) else { return }
        let packet = decoded.packet
        precondition((version ?? PacketDecoder.version(of: body)) == decoded.version, "decoded as v\(decoded.version)")
        precondition(kind == nil || kind == packet.kind, "a \(packet.kind) packet decoded as \(String(describing: kind))")
        precondition(!packet.metaLines.isEmpty, "a packet without records")
        let slots = packet.kind == .payload ? packet.metaLines.count : 0
        precondition(packet.payloads.count == slots, "\(packet.payloads.count) payload slots for \(packet.metaLines.count) meta lines")
        for line in packet.metaLines {
            precondition(!line.isEmpty && !line.contains(0x0A), "an empty meta line or one with a newline")
            guard let meta = try? JSONValue(parsing: line) else { continue }
            precondition((try? JSONValue(parsing: meta.jsonBytes())) == meta, "a meta line does not survive parse → encode → parse")
        }
    }

    /// The v2 key of the seeds, and the limits ``payloadSlots`` decodes within.
    static let v2Cipher = try! AESGCMCipher(key: Array(0x00...0x0F), keyID: 7)
    static let slotLimits = PacketLimits(blockBytes: 64 << 10, packetBytes: 128 << 10, records: 8)

    /// Builds a payload packet of the input's slots, decodes it within ``slotLimits``, and checks
    /// that it comes back whole when it is within them and is refused when it is not.
    private static func decodeSlots(_ data: [UInt8]) {
        guard let first = data.first else { return }
        let count = Int(first % 12) + 1
        let rest = Array(data.dropFirst())
        let size = max(1, rest.count / count)
        let payloads = (0..<count).map { Array(rest.dropFirst($0 * size).prefix(size)) }
        let lines = (0..<count).map { Array(#"{"REPORT_ID":"s\#($0)"}"#.utf8) }
        let packet = Packet(kind: .payload, metaLines: lines, payloads: payloads)
        guard let body = try? WireFormat.v2(v2Cipher).encode(packet) else { return }
        let opened = lines.reduce(lines.count - 1) { $0 + $1.count } + payloads.reduce(0) { $0 + $1.count }
        let within = count <= slotLimits.records && opened <= slotLimits.packetBytes && payloads.allSatisfy { $0.count <= slotLimits.blockBytes }
        do {
            let decoded = try decoder.decode(body, kind: .payload, version: 2, limits: slotLimits)
            precondition(within, "a packet past the limits was decoded (\(count) slots, \(opened) bytes)")
            precondition(decoded.packet.payloads == payloads && decoded.packet.metaLines == lines, "payload slots do not survive encode → decode")
        } catch {
            precondition(!within, "a packet within the limits was refused: \(error)")
        }
    }

    /// Parses a sync request and checks that a parsed one survives `jsonBytes()` → parse; reads
    /// the bytes as an answer both ways.
    private static func roundTripSyncRequest(_ json: [UInt8]) {
        let direct = try? SyncAnswer(jsonBytes: json)
        let throughValue = try? SyncAnswer(json: JSONValue(parsing: json))
        precondition(direct == throughValue, "an answer read straight from its bytes differs from the one read through JSONValue")
        guard let request = try? SyncRequest(jsonBytes: json) else { return }
        precondition(!request.clientID.utf8.contains(0), "a clientID with a NUL was accepted")
        do {
            let again = try SyncRequest(jsonBytes: request.jsonBytes())
            precondition(again == request, "a sync request does not survive jsonBytes() → parse")
        } catch {
            preconditionFailure("a sync request's jsonBytes() does not parse: \(error)")
        }
    }

    /// Decodes a configuration document and checks that clamping is final and that the clamped
    /// document survives `jsonBytes()` → decode unchanged.
    private static func roundTripConfiguration(_ json: [UInt8]) {
        guard let document = try? ConfigurationDocument(jsonBytes: json) else { return }
        let (clamped, _) = document.clamped()
        precondition(clamped.clamped().1.isEmpty, "clamping a clamped configuration changes it")
        do {
            let again = try ConfigurationDocument(jsonBytes: document.jsonBytes())
            precondition(again == clamped, "a configuration does not survive jsonBytes() → decode")
        } catch {
            preconditionFailure("a configuration's jsonBytes() does not decode: \(error)")
        }
    }
}
