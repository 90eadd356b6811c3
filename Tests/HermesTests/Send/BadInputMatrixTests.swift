import Dispatch
import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Testing

/// The public API under bad input: every case is a typed rejection that stores nothing and
/// crashes nothing.
struct BadInputMatrixTests {
    struct BadCall: Sendable, CustomTestStringConvertible {
        var name: String
        var code: HermesError.Code
        var send: @Sendable (HermesClient) -> SendOutcome

        var testDescription: String { name }
    }

    static let calls: [BadCall] = [
        BadCall(name: "empty type", code: .emptyType) { $0.send(type: "", meta: ["a": 1]) },
        BadCall(name: "empty type through a handle", code: .emptyType) { $0.namespace("JZ").send(type: "", meta: ["a": 1]) },
        BadCall(name: "empty prefix", code: .emptyPrefix) { $0.send(type: "pay", prefix: "", meta: ["a": 1]) },
        BadCall(name: "empty meta", code: .emptyMeta) { $0.send(type: "appLag", meta: [:]) },
        BadCall(name: "NUL in a type", code: .invalidText) { $0.send(type: "app\u{0}Lag", meta: ["a": 1]) },
        BadCall(name: "NUL in a prefix", code: .invalidText) { $0.send(type: "pay", prefix: "J\u{0}Z", meta: ["a": 1]) },
        BadCall(name: "meta over maxMetaKByte", code: .metaTooLarge) {
            $0.send(type: "appLag", meta: ["blob": .string(String(repeating: "x", count: 11 * 1_024))])
        },
        BadCall(name: "NaN", code: .invalidMeta) { $0.send(type: "appLag", meta: ["v": .double(.nan)]) },
        BadCall(name: "+infinity", code: .invalidMeta) { $0.send(type: "appLag", meta: ["v": .double(.infinity)]) },
        BadCall(name: "-infinity in a business record", code: .invalidMeta) { $0.send(type: "pay", prefix: "JZ", meta: ["v": .double(-.infinity)]) },
        BadCall(name: "NaN deep in an array", code: .invalidMeta) { $0.send(type: "appLag", meta: ["list": [1, ["deep": .double(.nan)]]]) },
        BadCall(name: "NaN in a crash, whose fields win", code: .invalidMeta) {
            $0.send(type: "appCrash", meta: ["v": .double(.nan)], payload: Data("0 main".utf8))
        },
        BadCall(name: "10 MB payload", code: .payloadTooLarge) { $0.send(type: "appCrash", meta: ["a": 1], payload: Data(count: 10 << 20)) },
        BadCall(name: "10 MB payload in a business record", code: .payloadTooLarge) {
            $0.send(type: "pay", prefix: "JZ", meta: ["a": 1], payload: Data(count: 10 << 20))
        },
    ]

    @Test(arguments: calls)
    func aBadCallIsATypedRejectionThatStoresNothing(_ call: BadCall) async throws {
        let harness = Harness()
        let client = try harness.client()

        let outcome = call.send(client)
        try await client.flush()
        await client.shutdown()

        #expect(outcome.code == call.code)
        #expect(outcome.error?.message.isEmpty == false)
        #expect(try harness.rows("meta").isEmpty)
        #expect(try harness.rows("payload").isEmpty)
    }

    @Test func sendAfterShutdownIsRejected() async throws {
        let harness = Harness()
        let client = try harness.client()
        await client.shutdown()
        #expect(client.send(type: "appLag", meta: ["a": 1]).code == .shutDown)
        #expect(client.namespace("JZ").send(type: "pay", meta: ["a": 1]).code == .shutDown)
        #expect(try harness.rows("meta").isEmpty)
    }

    @Test func rawInvalidUTF8IsRefusedByTheParserACallerWouldUse() {
        // A Swift String cannot hold invalid UTF-8; a caller with raw bytes parses them first.
        let error = #expect(throws: HermesWireError.self) { try JSONValue(parsing: [0x22, 0xFF, 0xFE, 0x22]) }
        #expect(error?.code == .invalidJSON)
    }

    @Test func textDecodedFromInvalidUTF8IsStoredAsValidJSON() async throws {
        // Given text decoded leniently from invalid UTF-8 (the bad bytes become U+FFFD)
        let harness = Harness()
        let client = try harness.client()
        let text = String(decoding: [0x61, 0xFF, 0xFE, 0x62], as: UTF8.self)

        // When it is sent as a key and as a value
        #expect(client.send(type: "appLag", meta: [text: .string(text)]).isAccepted)
        try await client.flush()
        await client.shutdown()

        // Then the stored meta is valid JSON holding the repaired text
        #expect(try harness.metas("meta").first?[text] == .string("a\u{FFFD}\u{FFFD}b"))
    }

    @Test func startSendAndShutdownRacingOnSeveralThreadsLoseNoAcceptedRecord() async throws {
        // Given a client that four threads send to while others start and shut it down
        let harness = Harness()
        let client = try harness.client()
        let accepted = Locked<Set<String>>([])
        let refusals = Locked<Set<HermesError.Code>>([])
        let senders = DispatchGroup()
        for thread in 0..<4 {
            DispatchQueue.global().async(group: senders) {
                for index in 0..<300 {
                    let outcome = client.send(type: "appLag", meta: ["thread": .int(Int64(thread)), "i": .int(Int64(index))])
                    if let reportID = outcome.reportID {
                        accepted.withLock { _ = $0.insert(reportID) }
                    } else if let code = outcome.code {
                        refusals.withLock { _ = $0.insert(code) }
                    }
                    if index == 100, thread.isMultiple(of: 2) { client.start() }
                }
            }
        }
        async let firstShutdown: Void = client.shutdown()
        async let secondShutdown: Void = client.shutdown()
        client.start()
        _ = await (firstShutdown, secondShutdown)
        await withCheckedContinuation { continuation in senders.notify(queue: .global()) { continuation.resume() } }
        await client.shutdown()

        // Then whatever was accepted is stored, and the rest was refused because of the shutdown
        let stored = try Set(harness.rows("meta").map { $0["report_id"] as String })
        #expect(stored == accepted.withLock { $0 })
        #expect(refusals.withLock { $0 }.isSubset(of: [.shutDown]))
        #expect(client.diagnostics().losses.isEmpty)
    }
}
