import Foundation
@testable import HermesWire
import Testing

/// Answers read straight from their bytes: the same change sets as through `JSONValue`, and
/// nothing read from bytes that `JSONValue`'s reading refuses or reads otherwise.
struct SyncWireReaderTests {
    /// An answer with two outcomes (one refused), missed change sets of several types with
    /// creates, updates and deletes, attributes of every kind, and a cursor; its entries in the
    /// wire's order (by type, then created, updated, deleted).
    private static let answer = SyncAnswer(
        maxRevision: 44, hasMore: true, cursor: "full:40:44",
        changeSets: [
            SyncChangeSet(
                sequence: 3, revision: 41, conflict: false,
                entries: [.init(.create, SyncRecord(type: "teams", id: 90, revision: 41, attributes: ["name": "Blue"]), oldID: -1)]),
            SyncChangeSet(
                sequence: 4, conflict: true, reason: "stale",
                entries: [.init(.update, SyncRecord(type: "teams", id: 12, revision: 39, attributes: ["name": "Navy"]))]),
            SyncChangeSet(
                revision: 42,
                entries: [
                    .init(.create, SyncRecord(type: "players", id: 91, revision: 42, attributes: ["team_id": 90, "score": 2.5, "active": true])),
                    .init(.delete, SyncRecord(type: "players", id: 31, revision: 42, attributes: nil)),
                    .init(.update, SyncRecord(type: "teams", id: 12, revision: 42, attributes: ["name": "Ärger \"quoted\"", "tags": ["a", 1]])),
                ]),
            SyncChangeSet(
                revision: 43,
                entries: (100..<130).map { .init(.create, SyncRecord(type: "notes", id: $0, revision: 43, attributes: ["n": .int($0)])) }),
        ])

    /// The answer read straight from `bytes`, or `nil` when the reader leaves them to `JSONValue`.
    private static func readDirectly(_ bytes: [UInt8]) -> SyncAnswer? {
        guard SyncWireReader.envelope(bytes) != nil else { return nil }
        return try? SyncAnswer(jsonBytes: bytes)
    }

    @Test func aWellFormedAnswerIsReadStraightFromItsBytesAsThroughJSONValue() throws {
        let bytes = try Self.answer.jsonBytes()
        let read = try #require(Self.readDirectly(bytes))
        #expect(read == Self.answer)
        #expect(read == (try SyncAnswer(json: JSONValue(parsing: bytes))))
        #expect(try SyncAnswer(jsonBytes: bytes) == Self.answer)
        // A change set alone, as a device's queue and the server's outcomes keep it.
        let changeSet = try Self.answer.changeSets[2].jsonBytes()
        #expect(SyncWireReader.changeSet(changeSet) == Self.answer.changeSets[2])
        #expect(try SyncChangeSet(jsonBytes: changeSet) == SyncChangeSet(json: JSONValue(parsing: changeSet)))
        // Members in another order, with whitespace: the same answer.
        let reordered = """
            { "reset": false, "maxRevision": 7, "changeSets": [ { "types": ["tags"], "revision": 7,
              "tags": { "update": [], "delete": [5], "create": [4], "attributes": { "4": { "label": "x", "revision": 7 } } } } ],
              "hasMore": false }
            """
        let expected = SyncAnswer(
            maxRevision: 7,
            changeSets: [
                SyncChangeSet(
                    revision: 7,
                    entries: [
                        .init(.create, SyncRecord(type: "tags", id: 4, revision: 7, attributes: ["label": "x"])),
                        .init(.delete, SyncRecord(type: "tags", id: 5, revision: 0, attributes: nil)),
                    ])
            ])
        #expect(Self.readDirectly(Array(reordered.utf8)) == expected)
    }

    @Test func whatJSONValueReadsOtherwiseOrRefusesIsLeftToIt() throws {
        let set = #"{"types":["t"],"t":{"attributes":{"1":{"a":1,"revision":2}},"create":[1],"delete":[],"update":[]}}"#
        func answer(_ changeSet: String) -> [UInt8] { Array(#"{"changeSets":[\#(changeSet)],"maxRevision":9}"#.utf8) }
        #expect(Self.readDirectly(answer(set)) != nil)
        let cases: [String] = [
            // An id listed twice, in one list or in two.
            set.replacingOccurrences(of: #""create":[1]"#, with: #""create":[1,1]"#),
            set.replacingOccurrences(of: #""update":[]"#, with: #""update":[1]"#),
            // A type listed twice, with records.
            set.replacingOccurrences(of: #"["t"]"#, with: #"["t","t"]"#),
            // An id key not written as `String(id)` is never found.
            set.replacingOccurrences(of: #"{"1":"#, with: #"{"01":"#),
            // A list missing or not a list; attributes or a record's values not objects.
            set.replacingOccurrences(of: #","update":[]"#, with: ""),
            set.replacingOccurrences(of: #""update":[]"#, with: #""update":{}"#),
            set.replacingOccurrences(of: #""attributes":{"1":{"a":1,"revision":2}}"#, with: #""attributes":[]"#),
            set.replacingOccurrences(of: #"{"a":1,"revision":2}"#, with: "5"),
            set.replacingOccurrences(of: #""create":[1]"#, with: #""create":["1"]"#),
            // A type without its member, types not a list of strings.
            #"{"types":["t"]}"#, #"{"types":[1]}"#, #"{"types":"t"}"#,
            // Invalid JSON.
            String(set.dropLast()),
        ]
        for changeSet in cases {
            let bytes = answer(changeSet)
            let generic = Result { () throws(HermesWireError) in try SyncAnswer(json: JSONValue(parsing: bytes)) }
            #expect(Self.readDirectly(bytes) == nil, "\(changeSet)")
            #expect(SyncWireReader.changeSet(Array(changeSet.utf8)) == nil, "\(changeSet)")
            #expect(throws: HermesWireError.self, "\(changeSet)") { try generic.get() }
            #expect(Result { () throws(HermesWireError) in try SyncAnswer(jsonBytes: bytes) }.failureMessage == generic.failureMessage)
        }
        // Read the same way, or left to `JSONValue`: a repeated type without records, duplicate
        // members (the later wins) and a revision written as 2.0, an unused value that is not an
        // object, an unknown member, a type named like a field.
        let same: [String] = [
            #"{"types":["t","t"],"t":{"attributes":{},"create":[],"delete":[],"update":[]}}"#,
            set.replacingOccurrences(of: #""a":1,"revision":2"#, with: #""a":1,"a":3,"revision":1,"revision":2.0"#),
            set.replacingOccurrences(of: #"{"1":"#, with: #"{"7":5,"x":1,"1":"#),
            set.replacingOccurrences(of: #"{"types""#, with: #"{"future":[{"x":1}],"types""#),
            #"{"types":["revision"],"revision":{"attributes":{"1":{}},"create":[1],"delete":[],"update":[]}}"#,
        ]
        for changeSet in same {
            let bytes = answer(changeSet)
            let generic = Result { () throws(HermesWireError) in try SyncAnswer(json: JSONValue(parsing: bytes)) }
            let read = Self.readDirectly(bytes)
            #expect(read == nil || read == (try? generic.get()), "\(changeSet)")
        }
        let duplicates = try #require(Self.readDirectly(answer(same[1])))
        #expect(duplicates.changeSets.first?.entries.first?.record == SyncRecord(type: "t", id: 1, revision: 2, attributes: ["a": 3]))
    }

    @Test func anyAnswerTheReaderReadsIsTheOneJSONValueReads() throws {
        // Seeded random edits of a valid answer: whatever the reader makes of them, the reading
        // through `JSONValue` makes too.
        let valid = try Self.answer.jsonBytes()
        let alphabet = Array(#"{}[]":,0123456789-.eE tfnrul"\abc"#.utf8)
        var random = SplitMix64(seed: 30)
        var readDirectly = 0
        for _ in 0..<3_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[position] = alphabet.randomElement(using: &random)!
                case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: position)
                default: bytes.remove(at: position)
                }
            }
            guard let read = Self.readDirectly(bytes) else { continue }
            readDirectly += 1
            #expect(read == (try SyncAnswer(json: JSONValue(parsing: bytes))))
        }
        // Edits inside strings and numbers keep most answers readable.
        #expect(readDirectly > 100)
    }
}

extension Result where Failure == HermesWireError {
    /// The error's message, `nil` for a success.
    fileprivate var failureMessage: String? {
        if case .failure(let error) = self { error.message } else { nil }
    }
}
