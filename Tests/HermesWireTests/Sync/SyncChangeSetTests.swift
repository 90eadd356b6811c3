import HermesWire
import Testing

struct SyncChangeSetTests {
    @Test func changeSetRoundTripsThroughItsWireJSON() throws {
        let changeSet = SyncChangeSet(
            sequence: 7,
            entries: [
                .init(.create, SyncRecord(type: "teams", id: -1, revision: 0, attributes: ["name": "Blue"])),
                .init(.create, SyncRecord(type: "players", id: -2, revision: 0, attributes: ["team_id": -1])),
                .init(.update, SyncRecord(type: "teams", id: 12, revision: 40, attributes: ["name": "Navy"])),
                .init(.delete, SyncRecord(type: "players", id: 31, revision: 38, attributes: nil)),
            ])
        let json = try changeSet.json.jsonString()
        #expect(
            json == """
                {"players":{"attributes":{"-2":{"revision":0,"team_id":-1},"31":{"revision":38}},"create":[-2],"delete":[31],"update":[]},\
                "sequence":7,"teams":{"attributes":{"-1":{"name":"Blue","revision":0},"12":{"name":"Navy","revision":40}},\
                "create":[-1],"delete":[],"update":[12]},"types":["teams","players"]}
                """)
        let decoded = try SyncChangeSet(json: JSONValue(parsing: Array(json.utf8)))
        #expect(Set(decoded.entries) == Set(changeSet.entries) && decoded.sequence == 7)
        #expect(try changeSet.jsonString() == json)
    }

    @Test func recordFromStoredAttributeTextIsWrittenAsTheBytesOfItsJSONValue() throws {
        let stored: [[String: JSONValue]] = [
            [:], ["name": "a"], ["a": 1], ["z": 1], ["revisio": 1, "revisionz": 2, "rz": false],
            ["a": ["x": [1, "}", "\"{,]"], "y": [:]], "r\"x": .null, "s": "\\", "Ärger": 2.5],
            // A key that is not an attribute: dropped, as from values.
            ["revision": 5, "b": 1],
        ]
        for (index, attributes) in stored.enumerated() {
            let text = try JSONValue.object(attributes).jsonBytes()
            let revision = Int64(40 + index)
            let fromText = SyncRecord(type: "teams", id: Int64(index + 1), revision: revision, encodedAttributes: text)
            let fromValues = SyncRecord(type: "teams", id: Int64(index + 1), revision: revision, attributes: attributes)
            let answer = { (record: SyncRecord) in
                SyncAnswer(maxRevision: revision, changeSets: [SyncChangeSet(revision: revision, entries: [.init(.update, record)])])
            }
            #expect(try answer(fromText).jsonBytes() == answer(fromValues).json.jsonBytes())
            #expect(fromText == fromValues && !fromText.isDeleted && fromText.attributes == attributes)
        }
    }

    @Test func answersAndRequestsAreWrittenAsTheBytesOfTheirJSONValues() throws {
        let outcome = SyncChangeSet(
            sequence: 3, revision: 41, conflict: false,
            entries: [
                .init(.create, SyncRecord(type: "teams", id: 10, revision: 41, attributes: ["name": "Blé \"Ω\"\n", "z": .null]), oldID: -2),
                .init(
                    .create, SyncRecord(type: "teams", id: 9, revision: 41, attributes: ["nested": ["a": [1, 2.5, true]], "Ärger": 1]), oldID: -1),
                .init(.update, SyncRecord(type: "players", id: 100, revision: 41, attributes: ["team_id": 9, "score": -7])),
                .init(.delete, SyncRecord(type: "players", id: 101, revision: 41, attributes: nil)),
            ])
        let refused = SyncChangeSet(
            sequence: 4, conflict: true, reason: "stale",
            entries: [
                .init(.update, SyncRecord(type: "teams", id: 9, revision: 40, attributes: ["name": "Red"]))
            ])
        let missed = SyncChangeSet(revision: 39, entries: [])
        // A type named like a field of the change set.
        let oddlyNamed = SyncChangeSet(revision: 38, entries: [.init(.create, SyncRecord(type: "sequence", id: 1, revision: 38, attributes: [:]))])
        // One id twice: the later entry's values, as in a dictionary.
        let sameIDTwice = SyncChangeSet(
            revision: 37,
            entries: [
                .init(.create, SyncRecord(type: "teams", id: 5, revision: 37, attributes: ["name": "first"])),
                .init(.update, SyncRecord(type: "teams", id: 12, revision: 37, attributes: ["name": "other"])),
                .init(.update, SyncRecord(type: "teams", id: 5, revision: 37, attributes: ["name": "later"])),
            ])
        for changeSet in [outcome, refused, missed, oddlyNamed, sameIDTwice] {
            #expect(try changeSet.jsonBytes() == changeSet.json.jsonBytes())
        }
        for answer in [
            SyncAnswer(maxRevision: 41, hasMore: true, reset: true, cursor: "full:3:41", changeSets: [outcome, refused, missed]),
            SyncAnswer(maxRevision: 0, changeSets: []),
        ] {
            #expect(try answer.jsonBytes() == answer.json.jsonBytes())
        }
        for request in [
            SyncRequest(clientID: "ipad-\u{1F600}", schemaVersion: 2, maxRevision: 40, cursor: "full:1:2", changeSets: [refused]),
            SyncRequest(clientID: "ipad-7", schemaVersion: 1, maxRevision: 0, changeSets: []),
        ] {
            #expect(try request.jsonBytes() == request.json.jsonBytes())
        }
        let notANumber = SyncChangeSet(
            sequence: 1, entries: [.init(.create, SyncRecord(type: "t", id: -1, revision: 0, attributes: ["x": .double(.nan)]))])
        #expect(throws: HermesWireError.self) { try notANumber.jsonBytes() }
    }

    /// Ids are written in the order of their text, as a dictionary's keys are: `-1` before `-10`
    /// before `0`, `1` before `10` before `19` before `2`, whatever their lengths and signs.
    @Test func idsAreWrittenInTheOrderOfTheirText() throws {
        var random = SplitMix64(seed: 27)
        let edges: [Int64] = [
            0, 1, 2, 9, 10, 19, 100, 101, 99, -1, -2, -10, -19, -100, .max, .min, .max - 1, .min + 1, 922_337_203_685_477_580,
        ]
        let scattered = (0..<300).map { _ in
            // Every length from 1 to 18 digits, either sign (the edges have 19).
            let digits = Int.random(in: 1...18, using: &random)
            let magnitude = Int64.random(in: 0..<[Int64](repeating: 10, count: digits).reduce(1, *), using: &random)
            return Bool.random(using: &random) ? -magnitude : magnitude
        }
        let entries = (edges + scattered).map { id in
            SyncChangeSet.Entry(.update, SyncRecord(type: "notes", id: id, revision: 5, attributes: ["n": .int(id)]))
        }
        let changeSet = SyncChangeSet(revision: 5, entries: entries)
        #expect(try changeSet.jsonBytes() == changeSet.json.jsonBytes())
    }

    @Test func recordListedTwiceOrCreatedWithoutAttributesIsRefused() throws {
        let twice = #"{"types":["t"],"t":{"create":[],"update":[5],"delete":[5],"attributes":{"5":{"revision":1}}}}"#
        let bare = #"{"types":["t"],"t":{"create":[-1],"update":[],"delete":[],"attributes":{}}}"#
        #expect(throws: HermesWireError.self) { try SyncChangeSet(json: JSONValue(parsing: Array(twice.utf8))) }
        #expect(throws: HermesWireError.self) { try SyncChangeSet(json: JSONValue(parsing: Array(bare.utf8))) }
        let typeTwice = #"{"types":["t","t"],"t":{"create":[],"update":[5],"delete":[],"attributes":{"5":{"revision":1}}}}"#
        #expect(throws: HermesWireError.self) { try SyncChangeSet(json: JSONValue(parsing: Array(typeTwice.utf8))) }
    }

    @Test func schemaCheckNamesWhatCannotBeApplied() {
        let schema = SyncSchema(
            version: 1,
            types: [
                SyncEntityType("teams", attributes: [.init("name", .string)]),
                SyncEntityType("players", attributes: [.init("team_id", .reference("teams"))]),
            ])
        func problem(_ entries: [SyncChangeSet.Entry]) -> String? { schema.problem(in: SyncChangeSet(sequence: 1, entries: entries)) }
        #expect(problem([.init(.create, SyncRecord(type: "teams", id: -1, revision: 0, attributes: ["name": "a"]))]) == nil)
        #expect(problem([.init(.create, SyncRecord(type: "coaches", id: -1, revision: 0, attributes: [:]))]) == "unknown type coaches")
        #expect(
            problem([.init(.create, SyncRecord(type: "teams", id: 4, revision: 0, attributes: [:]))])
                == "teams 4: a created record needs a negative temporary id")
        #expect(
            problem([.init(.update, SyncRecord(type: "teams", id: 4, revision: 1, attributes: ["name": 3]))])
                == "teams 4: teams.name is not a string")
        #expect(
            problem([.init(.create, SyncRecord(type: "players", id: -1, revision: 0, attributes: ["team_id": -9]))])
                == "players -1: team_id refers to teams -9, not created in this change set")
    }
}
