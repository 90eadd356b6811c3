import Foundation
@testable import Hermes
import HermesTestKit
import HermesWire
import Logging
import Testing

/// Which channel a record travels on (specification §6.1): with v1, a record with a payload also
/// reaches the meta channel, once; rows of a type the server stopped monitoring wait unsent.
struct ChannelSemanticsTests {
    /// A quiet client of `harness` (JZ under `jz`) speaking `wireFormat` to `collector`.
    static func client(
        _ harness: Harness, _ collector: FakeCollector, wireFormat: WireFormat, jz: NamespaceConfiguration = Harness.jz
    ) throws -> HermesClient {
        var configuration = harness.configuration(defaults: ["hermes": Harness.quietHermes, "JZ": jz], transport: collector.transport)
        configuration.credentials.wireFormat = wireFormat
        return try HermesClient(configuration: configuration, logger: Logger(label: "hermes.tests"))
    }

    @Test(arguments: [true, false])
    func withV1ADeliveredPayloadRecordAlsoGoesOnTheMetaChannelOnce(v1: Bool) async throws {
        // Given a record with a payload and one without, from a client speaking v1 (or v2)
        let harness = Harness()
        let collector = FakeCollector()
        let wireFormat: WireFormat = v1 ? .v1(FakeCollector.v1Cipher) : .v2(try AESGCMCipher(key: FakeCollector.key, keyID: 1))
        let client = try Self.client(harness, collector, wireFormat: wireFormat)
        client.start()
        let receipt = try #require(client.send(type: "pay", prefix: "JZ", meta: ["amount": 1], payload: Data(repeating: 7, count: 100)).reportID)
        let view = try #require(client.send(type: "view", prefix: "JZ", meta: ["screen": "home"]).reportID)
        try await client.flush()

        // When it uploads until nothing is left (three rounds: a copy made in one goes in the next)
        for _ in 0..<3 { await client.upload() }
        await client.shutdown()

        // Then with v1 the payload channel carried the record, and the meta channel its meta
        // after it, once, with the same REPORT_ID; with v2 the record went once, on the payload channel
        let payloadIDs = collector.requests.filter { $0.kind == .payload }.flatMap(\.reportIDs)
        let metaIDs = collector.requests.filter { $0.kind == .meta }.flatMap(\.reportIDs)
        #expect(payloadIDs == [receipt])
        #expect(metaIDs.sorted() == (v1 ? [receipt, view] : [view]).sorted())
        if v1 {
            let payloadIndex = try #require(collector.requests.firstIndex { $0.reportIDs.contains(receipt) })
            let metaIndex = try #require(collector.requests.lastIndex { $0.reportIDs.contains(receipt) })
            #expect(payloadIndex < metaIndex && collector.requests[metaIndex].kind == .meta)
            #expect(collector.requests[metaIndex].metas.first { $0["REPORT_ID"] == .string(receipt) }?["amount"] == 1)
        }
        #expect(try harness.rows("meta").isEmpty && harness.rows("payload").isEmpty)
    }

    @Test func rowsOfATypeNoLongerMonitoredWaitUnsentThenExpireAsUnmonitored() async throws {
        // Given JZ rows of pay and view, stored while both were monitored, 16 days ago
        let harness = Harness()
        let writer = try harness.quietClient(transport: harness.transport)
        writer.send(type: "pay", prefix: "JZ", meta: ["n": 1])
        writer.send(type: "view", prefix: "JZ", meta: ["n": 2])
        await writer.shutdown()
        harness.advanceWallClock(by: 16 * 86_400_000)
        let young = try harness.quietClient(transport: harness.transport)
        young.send(type: "pay", prefix: "JZ", meta: ["n": 3])
        await young.shutdown()

        // When the server's configuration lists only view: an upload sends none of the pay rows
        let collector = FakeCollector()
        let viewOnly = NamespaceConfiguration(monitorList: [MonitorItem(type: "view")])
        let client = try Self.client(harness, collector, wireFormat: .v2(try AESGCMCipher(key: FakeCollector.key, keyID: 1)), jz: viewOnly)
        client.start()
        await client.upload()
        let diagnostics = client.diagnostics()
        await client.shutdown()

        // Then housekeeping at that start expired the old pay row as unmonitored and the old view
        // row as expired, and the young pay row waits, unsent
        #expect(collector.requests.flatMap(\.monitorTypes).isEmpty)
        #expect(diagnostics.lost("JZ", .unmonitored) == 1 && diagnostics.lost("JZ", .expired) == 1)
        #expect(try harness.metas("meta").map { $0["n"] } == [3])
    }
}
