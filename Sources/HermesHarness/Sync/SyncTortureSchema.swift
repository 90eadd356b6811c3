package import HermesSync
package import HermesWire

/// The data set of the sync torture and benchmark: twelve related types, as an organisation's
/// iPads would share (teams, members, screens and their items, events, attendance, notes, tags).
/// Every type has a `label` (a unique creation tag, to find records created twice), a `score`
/// and a `flag`; relationships point to earlier types.
package enum SyncTortureSchema {
    package static let relationships: [(type: String, references: [String])] = [
        ("organizations", []),
        ("teams", ["organizations"]),
        ("members", ["teams"]),
        ("screens", ["teams"]),
        ("screen_items", ["screens"]),
        ("screen_instances", ["screens", "members"]),
        ("instance_items", ["screen_instances", "screen_items"]),
        ("events", ["teams"]),
        ("attendances", ["events", "members"]),
        ("tags", []),
        ("notes", ["members"]),
        ("note_tags", ["notes", "tags"]),
    ]

    /// The types whose records name their owner (an `owner` attribute).
    package static let owned: Set<String> = ["notes", "attendances"]

    package static let schema = SyncSchema(
        version: 1,
        types: relationships.map { type, references in
            SyncEntityType(
                type,
                attributes: [.init("label", .string), .init("score", .integer), .init("flag", .bool)]
                    + references.map { .init(referenceAttribute($0), .reference($0)) } + (owned.contains(type) ? [.init("owner", .string)] : []))
        })

    /// `schema` with the access rules the torture's server enforces: notes written by their owner
    /// only, attendances read and written by their owner only, tags written by editors only.
    package static func guarded(_ schema: SyncSchema) -> SyncSchema {
        SyncSchema(
            version: schema.version,
            types: schema.types.map { type in
                var type = type
                switch type.name {
                case "notes": (type.owner, type.write) = ("owner", [.owner])
                case "attendances": (type.owner, type.read, type.write) = ("owner", [.owner], [.owner])
                case "tags": type.write = [.role("editor")]
                default: break
                }
                return type
            })
    }

    /// The user and roles of the torture's device `clientID` (`device-N`, `process-N`): devices
    /// share seven users by N, and every third device is an editor.
    package static func identity(of clientID: String) -> SyncIdentity {
        let number = Int(clientID.split(separator: "-").last ?? "") ?? 0
        return SyncIdentity(clientID: clientID, user: "user-\(number % 7)", roles: number % 3 == 0 ? ["editor"] : [])
    }

    /// The schema's next version, which the torture's server moves to halfway: every type gained
    /// a `note` (an additive change, which devices of either version can go on syncing across).
    package static let upgraded = SyncSchema(
        version: 2, types: schema.types.map { SyncEntityType($0.name, attributes: $0.attributes + [.init("note", .string)]) })

    /// The foreign key attribute that points to `type`: `teams` → `team_id`.
    package static func referenceAttribute(_ type: String) -> String {
        let singular = type.hasSuffix("ies") ? String(type.dropLast(3)) + "y" : String(type.dropLast())
        return singular + "_id"
    }
}

/// The random local changes of one simulated device: creates (with foreign keys to records it
/// has, including ones not yet synced), updates of a small shared set of records (so devices
/// collide), and deletes (refused while other records refer to the record). It keeps to what its
/// identity may write under ``SyncTortureSchema/guarded(_:)``, but for a few trespasses (a record
/// owned by another user, another user's record changed, a tag by a non-editor), which the server
/// must refuse: a trespassing create is labelled `trespass:…`, a trespassing update sets
/// `score` to -1, so that the audit finds any the server let through.
package struct SyncWorkload {
    package let clientID: String
    let identity: SyncIdentity

    package init(clientID: String) {
        self.clientID = clientID
        identity = SyncTortureSchema.identity(of: clientID)
    }

    /// Whether a stored record of `type` is the device's to change (its user's, or of a type without owners).
    private func owns(_ record: SyncRecord, of type: SyncEntityType) -> Bool {
        !SyncTortureSchema.owned.contains(type.name) || record.attributes?["owner"]?.stringValue == identity.user
    }

    /// Makes one local transaction (labels of created records: `client:sequence:index`, unique
    /// across restarts of the device) of one to three changes on `client`; under the upgraded
    /// schema, its changes also write `note`.
    /// - Returns: whether a change set was queued.
    package func step(_ client: SyncClient, random: inout SplitMix64) throws -> Bool {
        let schema = client.schema
        let note: [String: JSONValue] = schema.version == SyncTortureSchema.upgraded.version ? ["note": .string("v2")] : [:]
        var plan: [(kind: Int, type: SyncEntityType, target: SyncRecord?, references: [String: JSONValue], score: Int64, trespass: Bool)] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let type = schema.types[Int.random(in: 0..<schema.types.count, using: &random)]
            let kind = Int.random(in: 0..<10, using: &random)
            let editor = type.name != "tags" || identity.roles.contains("editor")
            let trespass = (!editor || SyncTortureSchema.owned.contains(type.name)) && Double.random(in: 0..<1, using: &random) < 0.1
            if !editor && !trespass { continue }
            let existing = try client.records(type.name).filter { owns($0, of: type) != (trespass && editor) }
            var references: [String: JSONValue] = [:]
            for attribute in type.attributes {
                guard let target = attribute.referencedType else { continue }
                let candidates = try client.records(target).prefix(30)
                references[attribute.name] = candidates.randomElement(using: &random).map { .int($0.id) } ?? .null
            }
            // Most updates go to the oldest few records of a type: devices collide there.
            let target = kind < 7 ? nil : existing.prefix(kind < 9 ? 4 : 40).randomElement(using: &random)
            plan.append((kind, type, target, references, Int64.random(in: 0..<1_000, using: &random), trespass))
        }
        let before = try client.nextSequence()
        try client.write { changes in
            for (index, step) in plan.enumerated() {
                if let target = step.target, step.kind < 9 {
                    guard try changes.record(step.type.name, id: target.id) != nil else { continue }
                    let score = step.trespass ? -1 : step.score
                    try changes.update(step.type.name, id: target.id, ["score": .int(score), "flag": .bool(score % 2 == 0)].merging(note) { $1 })
                } else if let target = step.target {
                    guard try changes.record(step.type.name, id: target.id) != nil else { continue }
                    try changes.delete(step.type.name, id: target.id)
                } else {
                    var attributes = step.references
                    attributes["label"] = .string("\(step.trespass ? "trespass:" : "")\(clientID):\(before):\(index)")
                    if SyncTortureSchema.owned.contains(step.type.name) {
                        attributes["owner"] = .string(step.trespass ? "someone-else" : identity.user ?? "")
                    }
                    attributes["score"] = .int(step.score)
                    attributes["flag"] = .bool(false)
                    try changes.create(step.type.name, attributes.merging(note) { $1 })
                }
            }
        }
        return try client.nextSequence() > before
    }
}
