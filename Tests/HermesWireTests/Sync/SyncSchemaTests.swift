import Foundation
import HermesWire
import Testing

struct SyncSchemaTests {
    static let schema = SyncSchema(
        version: 3,
        types: [
            SyncEntityType("teams", attributes: [.init("name", .string), .init("rating", .double)]),
            SyncEntityType(
                "players",
                attributes: [
                    .init("name", .string), .init("number", .integer), .init("active", .bool), .init("team_id", .reference("teams")),
                ]),
        ])

    static func decode(_ json: String) throws -> SyncSchema {
        try JSONDecoder().decode(SyncSchema.self, from: Data(json.utf8))
    }

    @Test func jsonFormNamesKindsAndReferencesAndReadsBackTheSameSchema() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(Self.schema), as: UTF8.self)
        #expect(
            json == #"""
                {"types":[{"attributes":[{"kind":"string","name":"name"},{"kind":"double","name":"rating"}],"name":"teams"},\#
                {"attributes":[{"kind":"string","name":"name"},{"kind":"integer","name":"number"},{"kind":"bool","name":"active"},\#
                {"kind":"reference","name":"team_id","references":"teams"}],"name":"players"}],"version":3}
                """#)
        #expect(try Self.decode(json) == Self.schema)
    }

    @Test(arguments: [
        (#"{"version": 0, "types": [{"name": "a", "attributes": []}]}"#, "the schema version must be at least 1"),
        (#"{"version": 1, "types": []}"#, "the schema has no types"),
        (
            #"{"version": 1, "types": [{"name": "Teams", "attributes": []}]}"#,
            "type name Teams must be lowercase letters, digits and _, starting with a letter"
        ),
        (#"{"version": 1, "types": [{"name": "a", "attributes": []}, {"name": "a", "attributes": []}]}"#, "type a is declared twice"),
        (#"{"version": 1, "types": [{"name": "a", "attributes": [{"name": "id", "kind": "integer"}]}]}"#, "a.id: id and revision are not attributes"),
        (
            #"{"version": 1, "types": [{"name": "a", "attributes": [{"name": "x", "kind": "text"}]}]}"#,
            "x: kind text is not string, integer, double, bool or reference"
        ),
        (
            #"{"version": 1, "types": [{"name": "a", "attributes": [{"name": "b_id", "kind": "reference", "references": "b"}]}]}"#,
            "a.b_id refers to b, not a type of the schema"
        ),
    ])
    func schemaThatCannotBeServedIsRefusedSayingWhy(json: String, problem: String) {
        #expect {
            _ = try Self.decode(json)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription == problem
        }
    }
}

/// The access rules in the schema's JSON form.
struct SyncAccessRuleTests {
    @Test func rulesReadAsOneOrManyAndRoundTrip() throws {
        let json = """
            {"version":1,"types":[{"name":"notes","attributes":[{"name":"owner","kind":"string"}],"owner":"owner",
            "read":"everyone","write":["owner","role:admin"]},{"name":"tags","attributes":[]}]}
            """
        let schema = try JSONDecoder().decode(SyncSchema.self, from: Data(json.utf8))
        #expect(schema.types[0].read == [.everyone] && schema.types[0].write == [.owner, .role("admin")] && schema.types[0].owner == "owner")
        #expect(schema.types[1].read == [.everyone] && schema.types[1].write == [.everyone])
        #expect(try JSONDecoder().decode(SyncSchema.self, from: JSONEncoder().encode(schema)) == schema)
    }

    @Test func anOwnerRuleNeedsAStringOwnerAttributeAndRulesMustBeKnown() {
        let noOwner = #"{"version":1,"types":[{"name":"notes","attributes":[],"write":"owner"}]}"#
        let numberOwner = #"{"version":1,"types":[{"name":"notes","attributes":[{"name":"o","kind":"integer"}],"owner":"o"}]}"#
        let unknown = #"{"version":1,"types":[{"name":"notes","attributes":[],"read":"admins"}]}"#
        for json in [noOwner, numberOwner, unknown] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(SyncSchema.self, from: Data(json.utf8)) }
        }
    }

    @Test func ownerRoleAndEveryoneDecideReadsAndWrites() {
        let type = SyncEntityType("notes", attributes: [.init("owner", .string)], owner: "owner", read: [.owner, .role("audit")], write: [.owner])
        let alice = SyncIdentity(clientID: "a", user: "alice"), auditor = SyncIdentity(clientID: "b", user: "bob", roles: ["audit"])
        let anonymous = SyncIdentity(clientID: "c")
        let note = SyncRecord(type: "notes", id: 1, revision: 1, attributes: ["owner": "alice"])
        #expect(type.mayRead(note, by: alice) && type.mayRead(note, by: auditor) && !type.mayRead(note, by: anonymous))
        #expect(type.mayWrite(from: nil, to: ["owner": "alice"], by: alice) && !type.mayWrite(from: nil, to: ["owner": "alice"], by: auditor))
        #expect(!type.mayWrite(from: ["owner": "alice"], to: ["owner": "bob"], by: alice))
        #expect(type.mayWrite(from: ["owner": "alice"], to: nil, by: alice) && !type.mayWrite(from: nil, to: [:], by: anonymous))
    }
}
