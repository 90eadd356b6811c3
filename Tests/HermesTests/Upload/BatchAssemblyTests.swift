import Foundation
import GRDB
@testable import Hermes
import HermesTestKit
import HermesWire
import Testing

/// How a round assembles its batches (specification §6.2, §6.5): crash rows first, then oldest first,
/// within `maxItem` and `maxBodyMByte`, payloads only for `isUploadPayload` types.
struct BatchAssemblyTests {
    @Test func crashRowsGoFirstThenTheRestOldestFirstInEachTable() async throws {
        // Given crash and lag rows interleaved, with payloads and without
        let harness = Harness()
        let collector = FakeCollector()
        let client = try harness.client(defaults: ["hermes": Harness.quietHermes], transport: collector.transport)
        client.start()
        let stack = Data("stack".utf8)
        let lagWithDump1 = client.send(type: "appLag", meta: ["n": 1], payload: stack).reportID
        let lag1 = client.send(type: "appLag", meta: ["n": 2]).reportID
        let crash1 = client.send(type: "appCrash", meta: ["n": 3], payload: stack).reportID
        let lagWithDump2 = client.send(type: "appLag", meta: ["n": 4], payload: stack).reportID
        let crash2 = client.send(type: "appCrash", meta: ["n": 5]).reportID
        let lag2 = client.send(type: "appLag", meta: ["n": 6]).reportID
        let crash3 = client.send(type: "appCrash", meta: ["n": 7], payload: stack).reportID
        try await client.flush()

        // When upload() is called
        let summary = await client.upload()["hermes"]
        await client.shutdown()

        // Then the payload table goes first, then the meta table, each crash first then by age
        #expect(summary?.recordsSent == 7)
        #expect(collector.requests.map(\.kind) == [.payload, .meta])
        #expect(
            collector.requests.map(\.reportIDs) == [
                [crash1, crash3, lagWithDump1, lagWithDump2].compactMap { $0 },
                [crash2, lag1, lag2].compactMap { $0 },
            ])
        #expect(collector.requests.map(\.monitorTypes) == [["appCrash", "appCrash", "appLag", "appLag"], ["appCrash", "appLag", "appLag"]])
    }

    @Test func aBusinessNamespacesCrashRowsGoFirstToo() async throws {
        // Given a JZ namespace that monitors crashes (stored as JZ-appCrash) between payments
        let harness = Harness()
        let collector = FakeCollector()
        let jz = NamespaceConfiguration(monitorList: [MonitorItem(type: "pay"), MonitorItem(type: "appCrash")])
        let client = try harness.quietClient(jz: jz, transport: collector.transport)
        client.start()
        let pay1 = client.send(type: "pay", prefix: "JZ", meta: ["n": 1]).reportID
        let crash = client.send(type: "appCrash", prefix: "JZ", meta: ["n": 2]).reportID
        let pay2 = client.send(type: "pay", prefix: "JZ", meta: ["n": 3]).reportID
        try await client.flush()

        // When upload() is called
        let summary = await client.upload()["JZ"]
        await client.shutdown()

        // Then the crash leads the batch
        #expect(summary?.recordsSent == 3)
        #expect(collector.requests.map(\.reportIDs) == [[crash, pay1, pay2].compactMap { $0 }])
        #expect(collector.requests.map(\.monitorTypes) == [["JZ-appCrash", "JZ-pay", "JZ-pay"]])
    }

    @Test func aBatchHoldsAtMostMaxItemRows() async throws {
        let harness = Harness()
        let collector = FakeCollector()
        var jz = Harness.jz
        jz.maxItem = 3
        let client = try harness.quietClient(jz: jz, transport: collector.transport)
        client.start()
        let ids = (0..<7).compactMap { client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64($0))]).reportID }
        try await client.flush()

        let summary = await client.upload()["JZ"]
        await client.shutdown()

        #expect(summary?.recordsSent == 7)
        #expect(collector.requests.map(\.reportIDs) == [Array(ids[0..<3]), Array(ids[3..<6]), [ids[6]]])
    }

    @Test func aBatchFillsMaxBodyMByteToTheExactByte() async throws {
        // Given 6 stored rows of different sizes
        let harness = Harness()
        let writer = try harness.quietClient(transport: harness.transport)
        let ids = (0..<6).compactMap { index in
            writer.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64(index)), "pad": .string(String(repeating: "x", count: index * 7))]).reportID
        }
        await writer.shutdown()
        let sizes = try harness.rows("meta").map { $0["size"] as Int }
        let fourRows = sizes.prefix(4).reduce(0, +)

        // When a client whose maxBodyMByte is exactly those bytes uploads, and one whose limit is a byte less
        var firstBatches: [[String]] = []
        for limit in [fourRows, fourRows - 1] {
            var jz = Harness.jz
            jz.maxBodyMByte = Double(limit) / 1_048_576
            let collector = FakeCollector()
            // 503 leaves the rows pending for the next client.
            collector.answer.withLock { $0 = { _, _ in TransportResponse(status: 503) } }
            let client = try harness.quietClient(jz: jz, transport: collector.transport)
            client.start()
            #expect(client.configuration(for: "JZ")?.maxBodyBytes == limit)
            await client.upload()
            await client.shutdown()
            firstBatches.append(collector.requests.first?.reportIDs ?? [])
        }

        // Then the first batch holds exactly four rows, and three at one byte less
        #expect(sizes.count == 6 && Set(sizes).count == 6)
        #expect(firstBatches == [Array(ids.prefix(4)), Array(ids.prefix(3))])
    }

    @Test func onlyIsUploadPayloadTypesSendTheirPayload() async throws {
        // Given a payload-bearing record of a type that uploads payloads and one that does not
        let harness = Harness()
        let collector = FakeCollector()
        let jz = NamespaceConfiguration(monitorList: [MonitorItem(type: "pay", isUploadPayload: true), MonitorItem(type: "view")])
        let client = try harness.quietClient(jz: jz, transport: collector.transport)
        client.start()
        let receipt = client.send(type: "pay", prefix: "JZ", meta: ["amount": 1], payload: Data(repeating: 7, count: 1_000)).reportID
        let screenshot = client.send(type: "view", prefix: "JZ", meta: ["screen": "home"], payload: Data(repeating: 9, count: 500)).reportID
        try await client.flush()

        // When upload() is called
        let summary = await client.upload()["JZ"]
        await client.shutdown()

        // Then both metas arrive in one payload packet; only the first carries its payload
        #expect(summary?.recordsSent == 2)
        #expect(collector.requests.count == 1)
        #expect(collector.requests.first?.kind == .payload)
        #expect(collector.requests.first?.reportIDs == [receipt, screenshot].compactMap { $0 })
        #expect(collector.requests.first?.payloadSizes == [1_000, 0])
    }

    @Test func aRowLargerThanMaxBodyMByteAloneIsDroppedAsOversize() async throws {
        // Given a 5 KB row between two small ones, stored under a 1 MB limit
        let harness = Harness()
        let writer = try harness.quietClient(transport: harness.transport)
        let small1 = writer.send(type: "pay", prefix: "JZ", meta: ["n": 1], payload: Data(repeating: 1, count: 10)).reportID
        writer.send(type: "pay", prefix: "JZ", meta: ["n": 2], payload: Data(repeating: 2, count: 5_000))
        let small2 = writer.send(type: "pay", prefix: "JZ", meta: ["n": 3], payload: Data(repeating: 3, count: 10)).reportID
        await writer.shutdown()

        // When a client whose limit is now 4 KB uploads
        let collector = FakeCollector()
        var jz = Harness.jz
        jz.maxBodyMByte = 4_096 / 1_048_576
        let client = try harness.quietClient(jz: jz, transport: collector.transport)
        client.start()
        let summary = await client.upload()["JZ"]
        let diagnostics = client.diagnostics()
        await client.shutdown()

        // Then the small rows are delivered, the large one is dropped and counted
        #expect(summary?.recordsSent == 2 && summary?.outcome == .completed)
        #expect(collector.storedIDs("JZ") == Set([small1, small2].compactMap { $0 }))
        #expect(diagnostics.lost("JZ", .oversize) == 1)
        #expect(try harness.rows("payload").isEmpty)
    }
}
