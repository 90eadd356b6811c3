import ArgumentParser
import HermesCollector
import HermesHarness
import HermesSync
import HermesWire

/// `hermes sync demo`: two devices share a data set; one works offline, both change the same
/// record, and the story shows how sync refuses the blind overwrite and how the device recovers.
struct SyncDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Two devices, one offline, a conflict and its resolution, told step by step."
    )

    func run() async throws {
        let schema = SyncSchema(
            version: 1,
            types: [
                SyncEntityType("teams", attributes: [.init("name", .string)]),
                SyncEntityType("players", attributes: [.init("name", .string), .init("team_id", .reference("teams"))]),
            ])
        let server = SyncServer(storage: try SQLiteSyncStorage.inMemory(), rules: SyncRules(schema: schema))
        let annaLine = FaultySyncTransport(server: SyncServerSwitch(server: server, dropRate: 0, seed: 1), credential: nil, now: { 0 })
        let benLine = FaultySyncTransport(server: SyncServerSwitch(server: server, dropRate: 0, seed: 2), credential: nil, now: { 0 })
        let anna = try SyncClient(path: nil, clientID: "anna-ipad", schema: schema, transport: annaLine)
        let ben = try SyncClient(path: nil, clientID: "ben-ipad", schema: schema, transport: benLine)
        func show(_ who: String, _ client: SyncClient) throws {
            for type in ["teams", "players"] {
                for record in try client.records(type) {
                    let attributes =
                        try record.attributes?.filter { $0.value != .null }.sorted { $0.key < $1.key }
                        .map { "\($0.key)=\(try $0.value.jsonString())" }.joined(separator: " ") ?? ""
                    print("      \(who): \(type) #\(record.id) revision \(record.revision)  \(attributes)")
                }
            }
        }

        print("1. A server holds the shared data set. Anna's and Ben's iPads start empty.\n")

        print("2. Anna, on a plane, creates team Blue and player Ada in it. Records made offline get")
        print("   negative temporary ids; Ada's team_id points at the team's temporary id.")
        try anna.write { changes in
            let team = try changes.create("teams", ["name": "Blue"])
            try changes.create("players", ["name": "Ada", "team_id": .int(team)])
        }
        try show("Anna", anna)
        print("   Both records and the change set to send were saved in one local transaction.\n")

        print("3. Anna lands and syncs. The server gives the records real ids and revision 1, rewrites")
        print("   Ada's team_id, and answers each record with __oldId__ so Anna's iPad can follow.")
        try await anna.sync()
        try show("Anna", anna)
        print("")

        print("4. Ben syncs and receives the same rows.")
        try await ben.sync()
        try show("Ben ", ben)
        let team = try ben.records("teams")[0].id
        print("")

        print("5. Ben goes offline and renames the team Navy. His change remembers it was based on revision 1.")
        benLine.setOffline(true)
        try ben.write { try $0.update("teams", id: team, ["name": "Navy"]) }
        let failed = (try? await ben.sync()) == nil
        let queued = try ben.queuedChangeSets()
        print("   (Ben's sync fails while offline: \(failed); the change waits in his queue: \(queued) change set.)\n")

        print("6. Meanwhile Anna renames the same team Green and syncs: the team is now at revision 2.")
        try anna.write { try $0.update("teams", id: team, ["name": "Green"]) }
        try await anna.sync()
        try show("Anna", anna)
        print("")

        print("7. Ben comes back online and syncs. His change was based on revision 1, but the team")
        print("   changed since: overwriting Anna's Green without seeing it would be a blind overwrite.")
        print("   The server refuses the whole change set (conflict: true) and sends the team as it is.")
        benLine.setOffline(false)
        let report = try await ben.sync()
        for conflict in report.conflicts {
            print("   conflict on change set \(conflict.sequence): \(conflict.reason?.rawValue ?? "?")")
        }
        try show("Ben ", ben)
        print("   Ben's iPad restored the server's record without any undo log; his app was told through")
        print("   SyncClient.events, so it can show Ben what happened.\n")

        print("8. Ben looks at Green and decides Navy is still right: he changes it again, now based on")
        print("   revision 2. This time nobody changed it in between, so the server applies it.")
        try ben.write { try $0.update("teams", id: team, ["name": "Navy"]) }
        try await ben.sync()
        try await anna.sync()
        try show("Anna", anna)
        try show("Ben ", ben)
        let same = try anna.records("teams") == ben.records("teams") && anna.records("players") == ben.records("players")
        print("\nBoth iPads hold the same rows: \(same). Nothing was overwritten without being seen.")
        if !same { throw ExitCode(1) }
    }
}
