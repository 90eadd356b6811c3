import ArgumentParser
import Foundation
@testable import Hermes
@testable import hermes
import HermesCollector
import HermesTestKit
import HermesWire
import Testing

/// The real SDK and the real collector over loopback.
struct EndToEndTests {
    @Test func everyNamespaceIsDeliveredOnce() async throws {
        let loopback = try Loopback()
        let server = try await loopback.startCollector()
        let client = try loopback.client(port: server.port)
        client.start()
        await client.refreshConfiguration()
        var sent: [String: Set<String>] = [:]
        for index in 0..<120 {
            sent["hermes", default: []].insert(client.send(type: "appLag", meta: ["i": .int(Int64(index))]).reportID!)
            sent["JZ", default: []].insert(client.send(type: "pay", prefix: "JZ", meta: ["i": .int(Int64(index))]).reportID!)
            sent["KX", default: []].insert(client.send(type: "view", prefix: "KX", meta: ["i": .int(Int64(index))]).reportID!)
        }
        sent["hermes", default: []].insert(client.send(type: "appCrash", meta: ["signal": "SIGBUS"], payload: Data("0 main".utf8)).reportID!)
        try await client.flush()

        let summaries = await client.upload()
        await client.shutdown()

        for namespace in ["hermes", "JZ", "KX"] {
            #expect(summaries[namespace]?.outcome == .completed)
            let stored = try await loopback.storedIDs(namespace)
            #expect(stored.count == sent[namespace]?.count)
            #expect(Set(stored) == sent[namespace])
        }
        let crash = try await loopback.storage.events(EventQuery(namespace: "hermes", monitorType: "appCrash"))
        #expect(crash.first?.payload == Array("0 main".utf8))
        try await server.shutdown()
    }

    @Test func anAdminEditReachesTheClientAndStopsOnlyThatNamespace() async throws {
        let loopback = try Loopback()
        let server = try await loopback.startCollector()
        let client = try loopback.client(port: server.port)
        client.start()
        await client.refreshConfiguration()
        #expect(client.send(type: "pay", prefix: "JZ", meta: ["before": true]).isAccepted)

        // When the admin switches JZ's gathering off
        let edit = try await loopback.request(
            "PUT", port: server.port, path: "/v1/admin/namespaces/JZ/config",
            headers: ["Authorization": "Bearer \(Loopback.adminToken)", "Content-Type": "application/json"],
            body: Array(#"{"isGather":false,"monitorList":[{"type":"pay"}]}"#.utf8)
        )
        #expect(edit.status == 200)
        await client.refreshConfiguration()

        // Then JZ rejects while the others go on
        #expect(client.configurationRevision == 2)
        #expect(client.send(type: "pay", prefix: "JZ", meta: ["after": true]).error?.code == .notGathering)
        #expect(client.send(type: "view", prefix: "KX", meta: ["after": true]).isAccepted)
        #expect(client.send(type: "appLag", meta: ["after": true]).isAccepted)
        try await client.flush()
        await client.upload()
        await client.shutdown()
        #expect(try await loopback.storedIDs("JZ").count == 1)
        #expect(try await loopback.storedIDs("KX").count == 1)
        #expect(try await loopback.storedIDs("hermes").count == 1)
        try await server.shutdown()
    }

    @Test func aCollectorRestartedMidStreamStillGetsEverythingOnce() async throws {
        let loopback = try Loopback()
        let first = try await loopback.startCollector()
        let port = first.port
        let client = try loopback.client(port: port)
        client.start()
        await client.refreshConfiguration()
        var ids = Set<String>()
        for index in 0..<150 { ids.insert(client.send(type: "appLag", meta: ["i": .int(Int64(index))]).reportID!) }
        try await client.flush()
        await client.upload()

        // The collector goes away while more records arrive
        try await first.shutdown()
        for index in 150..<300 { ids.insert(client.send(type: "appLag", meta: ["i": .int(Int64(index))]).reportID!) }
        try await client.flush()
        let whileDown = await client.upload()["hermes"]
        guard case .retryLater? = whileDown?.outcome else {
            Issue.record("expected a retry while the collector is down, got \(String(describing: whileDown))"); return
        }

        // And comes back on the same port with the same store
        let second = try await loopback.startCollector(port: port)
        let afterRestart = await client.upload()["hermes"]
        await client.shutdown()
        try await second.shutdown()

        #expect(afterRestart?.outcome == .completed)
        let stored = try await loopback.storedIDs("hermes")
        #expect(stored.count == 300)
        #expect(Set(stored) == ids)
    }

    @Test func theSameBatchPostedTwiceIsStoredOnce() async throws {
        let loopback = try Loopback()
        let server = try await loopback.startCollector()
        let packet = Packet(
            kind: .meta,
            metaLines: try (0..<5).map { index in
                try JSONValue.object([
                    "REPORT_ID": .string("dup-\(index)"), "NAMESPACE": "KX", "MONITOR_TYPE": "KX-view", "IS_BIZ": true,
                    "CREATE_TIME": .int(1_000 + Int64(index)),
                ]).jsonBytes()
            })
        let body = try WireFormat.v2(Loopback.cipher).encode(packet)
        let headers = [
            HermesHeader.appKey: Loopback.appKey, HermesHeader.namespace: "KX", HermesHeader.packetVersion: "2", HermesHeader.batchID: "b-1",
        ]
        let first = try await loopback.request("POST", port: server.port, path: HermesPath.uploadMeta, headers: headers, body: body)
        let second = try await loopback.request("POST", port: server.port, path: HermesPath.uploadMeta, headers: headers, body: body)
        try await server.shutdown()
        #expect(first.status == 200 && second.status == 200)
        #expect(try JSONValue(parsing: first.body) == ["stored": 5, "duplicates": 0, "rejected": []])
        #expect(try JSONValue(parsing: second.body) == ["stored": 0, "duplicates": 5, "rejected": []])
        #expect(try await loopback.storedIDs("KX").count == 5)
    }

    @Test func anUnreadablePacketIsRefusedWholeAndABadRecordAlone() async throws {
        let loopback = try Loopback()
        let server = try await loopback.startCollector()
        let line = #"{"CREATE_TIME":1,"IS_BIZ":false,"MONITOR_TYPE":"appLag","NAMESPACE":"hermes","REPORT_ID":"r1"}"#
        let good = try WireFormat.v2(Loopback.cipher).encode(Packet(kind: .meta, metaLines: [Array(line.utf8)]))
        let wrongKey = try WireFormat.v2(try AESGCMCipher(key: Array(repeating: 7, count: 16), keyID: 3)).encode(
            Packet(kind: .meta, metaLines: [Array("{}".utf8)]))
        let headers = [HermesHeader.appKey: Loopback.appKey, HermesHeader.namespace: "hermes", HermesHeader.packetVersion: "2"]
        let refusals: [(String, [UInt8], [String: String], Int, String, String)] = [
            ("truncated", Array(good.prefix(good.count - 3)), headers, 400, "truncatedPacket", "packet"),
            ("wrong key", wrongKey, headers, 400, "authenticationFailed", "packet"),
            ("no app key", good, headers.filter { $0.key != HermesHeader.appKey }, 401, "unauthorized", "request"),
        ]
        for (name, body, requestHeaders, status, code, scope) in refusals {
            let response = try await loopback.request("POST", port: server.port, path: HermesPath.uploadMeta, headers: requestHeaders, body: body)
            #expect(response.status == status, "\(name)")
            #expect(try JSONValue(parsing: response.body)["error"] == .string(code), "\(name)")
            #expect(try JSONValue(parsing: response.body)["scope"] == .string(scope), "\(name)")
        }
        #expect(try await loopback.storedIDs("hermes").isEmpty)

        // A readable packet with a bad line and a line without REPORT_ID stores its good record
        let mixed = try WireFormat.v2(Loopback.cipher).encode(
            Packet(
                kind: .meta,
                metaLines: [
                    Array("{not json".utf8), Array(line.utf8),
                    Array(#"{"CREATE_TIME":1,"IS_BIZ":false,"MONITOR_TYPE":"appLag","NAMESPACE":"hermes"}"#.utf8),
                ]))
        let after = try await loopback.request("POST", port: server.port, path: HermesPath.uploadMeta, headers: headers, body: mixed)
        let answer = UploadAnswer(body: after.body)
        #expect(after.status == 200)
        #expect(answer.stored == 1 && answer.rejected.map(\.index) == [0, 2])
        #expect(answer.rejected.map(\.code) == ["invalidJSON", "missingField"])
        #expect(try await loopback.storedIDs("hermes") == ["r1"])
        try await server.shutdown()
    }

    @Test func theDemoRunsAndFindsEveryRecord() async throws {
        // The demo throws ExitCode(1) when an accepted record is missing at the collector.
        let demo = try #require(try HermesCommand.parseAsRoot(["demo"]) as? DemoCommand)
        try await demo.run()
    }
}
