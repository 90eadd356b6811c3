import Foundation
@testable import Hermes
import HermesCollector
import HermesWire
import Testing

/// A caller cannot make a record invalid: every shape of meta and payload that `send` accepts,
/// in the monitoring and a business namespace, is stored by the real collector.
extension EndToEndTests {
    /// Keys that collide with the fields the collector checks and with the other common
    /// fields, and keys the splicing encoder cannot take (non-ASCII, empty, control bytes).
    static let awkwardKeys = [
        "REPORT_ID", "CREATE_TIME", "MONITOR_TYPE", "IS_BIZ", "NAMESPACE", "APP_VERSION", "DEVICE_ID",
        "", "é", "日本", "a\"b", "line\nbreak", "\u{0}nul", "ZZZ", "a",
    ]

    /// Values of every JSON kind at their edges, up to the deepest the collector reads.
    static let awkwardValues: [JSONValue] = [
        "yesterday", "", "\u{0}\n\"\\", "😀 ünïcödé", .int(.max), .int(.min), .double(1e300), .double(-0.0), .double(5e-324),
        .double(1.5), true, false, .null, [], [:], ["nested": ["deeper": [1, "two", nil]]],
        (0..<62).reduce(JSONValue.int(1)) { inner, _ in .array([inner]) },
    ]

    @Test func everyShapeSendAcceptsIsStoredByTheCollector() async throws {
        // Given a client of the real collector, with crashes monitored in JZ too
        let loopback = try Loopback()
        let server = try await loopback.startCollector()
        let client = try loopback.client(port: server.port)
        client.start()
        await client.refreshConfiguration()

        // When every awkward key takes every awkward value, for crashes (whose caller fields win
        // over the common ones) and ordinary types, with and without payloads, in both namespaces
        var accepted: [String: Set<String>] = [:]
        var refused: [String] = []
        func send(_ namespace: String, _ type: String, _ meta: [String: JSONValue], _ payload: Data?) {
            let outcome = client.send(type: type, prefix: namespace, meta: meta, payload: payload)
            if let id = outcome.reportID { accepted[namespace, default: []].insert(id) } else { refused.append("\(namespace) \(type) \(meta)") }
        }
        for (index, key) in Self.awkwardKeys.enumerated() {
            for (offset, value) in Self.awkwardValues.enumerated() {
                let meta: [String: JSONValue] = [key: value, "n": .int(Int64(index * 100 + offset))]
                send("hermes", "appCrash", meta, offset.isMultiple(of: 2) ? Data("stack".utf8) : nil)
                send("hermes", "appLag", meta, nil)
                send("JZ", "appCrash", meta, offset.isMultiple(of: 3) ? Data() : nil)
                send("JZ", "pay", meta, nil)
            }
        }
        // every checked field forged at once, and a payload that fills the stored size
        let forged: [String: JSONValue] = ["REPORT_ID": 7, "CREATE_TIME": "soon", "MONITOR_TYPE": [], "IS_BIZ": "no", "NAMESPACE": "KX"]
        send("hermes", "appCrash", forged, Data("stack".utf8))
        send("JZ", "appCrash", forged, nil)
        let fill = (client.configuration(for: "hermes")?.maxBodyBytes ?? 0) - 1_024
        send("hermes", "appCrash", ["big": true], Data(repeating: 0xAB, count: fill))
        try await client.flush()
        let summaries = await client.upload()
        let diagnostics = client.diagnostics()
        await client.shutdown()

        // Then send took them all, and the collector stored every one, rejecting none
        #expect(refused.isEmpty)
        #expect(summaries.values.allSatisfy { $0.outcome == .completed && $0.recordsRejected == 0 })
        #expect(diagnostics.losses.isEmpty)
        for namespace in ["hermes", "JZ"] {
            let stored = try await loopback.storedIDs(namespace)
            #expect(Set(stored) == accepted[namespace, default: []], "\(namespace)")
            #expect(stored.count == accepted[namespace, default: []].count, "\(namespace)")
        }
        try await server.shutdown()
    }
}
