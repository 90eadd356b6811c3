import HermesWire
import Hummingbird

/// `GET /console/api/sync`, for viewers: whether the collector serves record sync and, if it
/// does, the current revision, each type's records, the 50 newest change sets with their
/// outcomes, and the 200 devices seen last.
struct ConsoleSyncRoutes {
    let gate: ConsoleGate
    let sync: SyncServer?

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.get("/console/api/sync") { request, _ -> Response in
            _ = try await gate.require(.viewer, request)
            guard let sync else { return try .json(["served": false]) }
            let overview = try await sync.storage.overview(recent: 50, devices: 200)
            return try .json([
                "served": true,
                "revision": .int(overview.revision),
                "types": .array(overview.types.map { ["type": .string($0.type), "live": .int($0.live), "deleted": .int($0.deleted)] }),
                "recent": .array(
                    overview.recent.map { outcome in
                        [
                            "clientID": .string(outcome.clientID), "sequence": .int(outcome.sequence),
                            "revision": outcome.revision.map(JSONValue.int) ?? .null,
                            "conflict": outcome.conflictReason.map(JSONValue.string) ?? .null, "entries": .int(Int64(outcome.entries)),
                            "receivedAt": .int(outcome.receivedAt),
                        ]
                    }),
                "devices": .array(
                    overview.devices.map { device in
                        [
                            "clientID": .string(device.clientID), "lastExchange": .int(device.lastExchange), "changeSets": .int(device.changeSets),
                            "conflicts": .int(device.conflicts),
                        ]
                    }),
            ])
        }
    }
}
