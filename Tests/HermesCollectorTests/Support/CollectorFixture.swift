import Crypto
import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// A collector over an in-memory store with fixed keys, and helpers to talk to it without sockets.
struct CollectorFixture {
    static let appKey = "test-app-key"
    static let adminToken = "test-admin-token"
    static let namespace = "shop"
    static let v1Key = [UInt8](0..<16)
    static let v1IV = [UInt8](16..<32)
    static let gcmKey = [UInt8](32..<64)
    static let gcmKeyID: UInt32 = 7
    static let hpkeKeyID: UInt32 = 9
    static let hpkePrivateKey: [UInt8] = Array(repeating: 0x42, count: 32)

    let storage: SQLiteCollectorStorage
    let metrics = CollectorMetrics()
    var configuration: CollectorConfiguration

    init(maxBodyBytes: Int = 4 << 20, storage: SQLiteCollectorStorage? = nil) throws {
        self.storage = try storage ?? .inMemory()
        configuration = CollectorConfiguration(
            port: 0,
            appKeys: [Self.appKey],
            adminToken: Self.adminToken,
            keyring: try Self.keyring(),
            maxBodyBytes: maxBodyBytes
        )
    }

    static func keyring() throws -> Keyring {
        Keyring([
            try AESCBCCipher(key: v1Key, iv: v1IV),
            try AESGCMCipher(key: gcmKey, keyID: gcmKeyID),
            try HPKECipher(privateRawKey: hpkePrivateKey, keyID: hpkeKeyID),
        ])
    }

    /// The wire formats an app can send, one per cipher the fixture's collector knows.
    static func formats() throws -> [String: WireFormat] {
        [
            "v1": .v1(try AESCBCCipher(key: v1Key, iv: v1IV)),
            "v2-gcm": .v2(try AESGCMCipher(key: gcmKey, keyID: gcmKeyID)),
            "v2-hpke": .v2(
                HPKECipher(recipient: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: hpkePrivateKey).publicKey, keyID: hpkeKeyID)),
        ]
    }

    static let silentLogger = Logger(label: "hermes.collector.tests") { _ in SwiftLogNoOpLogHandler() }

    /// Builds the collector and runs `test` against its router.
    func test<Value: Sendable>(_ test: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let app = try await buildApplication(configuration: configuration, storage: storage, metrics: metrics, logger: Self.silentLogger)
        return try await app.test(.router, test)
    }

    /// Every stored event, for checking what an upload left behind.
    func storedEvents() async throws -> [StoredEvent] {
        Array(try await storage.events(EventQuery(limit: EventQuery.maximumLimit)))
    }

    /// A record's meta line with the fields the collector checks, plus `extra` (which wins).
    static func metaLine(
        _ reportID: String, namespace: String = namespace, type: String = "order", createTime: Int64 = 1_000,
        extra: [String: JSONValue] = [:]
    ) throws -> [UInt8] {
        let checked: [String: JSONValue] = [
            RecordField.reportID: .string(reportID), RecordField.namespace: .string(namespace), RecordField.monitorType: .string(type),
            RecordField.createTime: .int(createTime), RecordField.isBusiness: .bool(RecordNamespace.isBusiness(namespace)),
        ]
        return try JSONValue.object(checked.merging(extra) { _, extra in extra }).jsonBytes()
    }
}

extension TestClientProtocol {
    /// Posts an upload body with the Hermes headers; `nil` leaves a header out.
    func upload(
        _ body: [UInt8], kind: PacketKind, version: UInt8? = nil, namespace: String? = CollectorFixture.namespace,
        appKey: String? = CollectorFixture.appKey, batchID: String = "batch-1", deviceID: String = "device-1"
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.hermesBatchID: batchID, .hermesDeviceID: deviceID]
        headers[.hermesAppKey] = appKey
        headers[.hermesNamespace] = namespace
        headers[.hermesPacketVersion] = version.map { String($0) }
        return try await execute(uri: HermesPath.upload(kind), method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    /// Sends a request with the admin token, or with `token` when given.
    func admin(_ uri: String, method: HTTPRequest.Method, token: String? = CollectorFixture.adminToken, body: String? = nil) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [:]
        headers[.authorization] = token.map { "Bearer \($0)" }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }
}

extension TestResponse {
    /// The body parsed as JSON.
    func json() throws -> JSONValue {
        try JSONValue(parsing: Array(body.readableBytesView))
    }

    /// The body as text.
    var text: String { String(buffer: body) }
}
