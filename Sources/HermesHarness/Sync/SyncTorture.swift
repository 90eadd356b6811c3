package import Foundation
package import HermesCollector
package import HermesCollectorPostgres
package import HermesSync
package import HermesWire
package import Logging

/// `hermes sync torture`: devices share one data set through a server that loses answers after
/// committing, devices go offline at random, a few device processes are killed with SIGKILL and
/// started again, and the server restarts once, halfway, moving to the next schema version
/// (``SyncTortureSchema/upgraded``). A fifth of the in-process devices run the upgraded app from
/// the start (their changes wait, `schemaPending`, until the server speaks it); the others are
/// updated at random after the move, with their offline work queued; the device processes keep
/// the old app until the quiet phase. After a quiet phase (every app updated) every device must
/// hold the server's rows, every change set a device saved must have exactly one outcome, no
/// record may be created twice, and no device's revision may go backwards (but at its update,
/// when it fetches the data set again).
///
/// Every device syncs with its own credential, and the server enforces access rules
/// (``SyncTortureSchema/guarded(_:)``): each device holds exactly the server's rows it may read,
/// no trespass is let through, and no request under another device's client id is answered.
package struct SyncTorture {
    package struct Outcome {
        package var devices = 0
        package var changes = 0
        package var conflicts = 0
        package var diverged = 0
        package var lost = 0
        package var duplicates = 0
        package var regressions = 0
        package var kills = 0
        package var droppedAnswers = 0
        /// Answers that left a device's change sets waiting for the server's schema.
        package var waited = 0
        /// Change sets of the in-process devices refused as `forbidden` (their trespasses).
        package var forbidden = 0
        /// Live records a trespass left: a create labelled `trespass:` or an update's score of -1.
        package var violations = 0
        /// Requests under another device's client id (without its credential) the server answered.
        package var impersonations = 0

        package var kept: Bool {
            diverged == 0 && lost == 0 && duplicates == 0 && regressions == 0 && conflicts > 0 && violations == 0 && impersonations == 0
        }
    }

    package let devices: Int
    package let seconds: Double
    package let seed: UInt64
    package let processes: Int
    package let executable: URL?
    /// A PostgreSQL server to keep the server's data set on (in a database made for the run and
    /// dropped after it), or `nil` for a SQLite file.
    package var postgresServer: String?

    package init(devices: Int, seconds: Double, seed: UInt64, processes: Int, executable: URL?, postgresServer: String? = nil) {
        self.devices = devices
        self.seconds = seconds
        self.seed = seed
        self.processes = processes
        self.executable = executable
        self.postgresServer = postgresServer
    }

    package func run() async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-sync-torture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let postgresServer else {
            return try await run(in: directory, location: .sqlite(path: directory.appendingPathComponent("server.sqlite").path))
        }
        let name = "hermes_sync_torture_\(UUID().uuidString.prefix(8).lowercased())"
        let url = try await PostgresAdministration.createDatabase(name, serverURL: postgresServer, logger: TortureLog.quiet)
        do {
            let outcome = try await run(in: directory, location: .postgres(url: url))
            try await PostgresAdministration.dropDatabase(name, serverURL: postgresServer, logger: TortureLog.quiet)
            return outcome
        } catch {
            try? await PostgresAdministration.dropDatabase(name, serverURL: postgresServer, logger: TortureLog.quiet)
            throw error
        }
    }

    private func run(in directory: URL, location: StorageLocation) async throws -> Outcome {
        let servers = try await SyncTortureServer.start(location: location, dropRate: 0.15, seed: seed)
        let simulated = max(0, devices - (executable == nil ? 0 : processes))
        let ids = (0..<simulated).map { "device-\($0)" } + (executable == nil ? [] : (0..<processes).map { "process-\($0)" })
        var credentials: [String: String] = [:]
        for id in ids {
            let identity = SyncTortureSchema.identity(of: id)
            let (device, secret) = try SyncDevice.issue(clientID: id, user: identity.user ?? "", roles: Array(identity.roles), now: 1)
            try await servers.storage.addDevice(device)
            credentials[id] = secret
        }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(seconds)
        let now: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }

        // Device processes, killed with SIGKILL and started again until the deadline.
        let children =
            executable.map { executable in
                (0..<processes).map {
                    ChildDevice(index: $0, directory: directory, executable: executable, seed: seed, credential: credentials["process-\($0)"] ?? "")
                }
            } ?? []
        async let killed = runThreads(children.count) { index in children[index].run(until: deadline, port: { servers.port }) }

        // The server restarts once, halfway, with the next schema version.
        async let restarted: Void = servers.restart(after: seconds / 2, schema: SyncTortureSchema.upgraded)
        let upgrade = clock.now + .seconds(seconds / 2)

        // In-process devices, each with its own SQLite file.
        let (regressions, waited, forbidden) = try await withThrowingTaskGroup(of: (Int, Int, Int).self) { group in
            for index in 0..<simulated {
                let device = SimulatedDevice(
                    index: index, directory: directory, seed: seed, switchboard: servers.switchboard, credential: credentials["device-\(index)"],
                    now: now)
                group.addTask { try await device.run(until: deadline, upgradeAfter: upgrade) }
            }
            return try await group.reduce((0, 0, 0)) { ($0.0 + $1.0, $0.1 + $1.1, $0.2 + $1.2) }
        }
        try await restarted
        let kills = await killed
        var outcome = Outcome(devices: simulated + children.count)
        outcome.regressions = regressions + kills.map(\.regressions).reduce(0, +)
        outcome.waited = waited
        outcome.forbidden = forbidden
        outcome.kills = kills.map(\.kills).reduce(0, +)
        outcome.droppedAnswers = servers.switchboard.dropped

        // Quiet phase: everything online, no answer lost, every device syncs until its queue is empty.
        servers.switchboard.setDropRate(0)
        var clients: [(id: String, client: SyncClient)] = []
        for id in ids {
            let transport = FaultySyncTransport(server: servers.switchboard, credential: credentials[id], now: now)
            let path = directory.appendingPathComponent("\(id).sqlite").path
            clients.append((id, try SyncClient(path: path, clientID: id, schema: SyncTortureSchema.upgraded, transport: transport)))
        }
        for _ in 0..<3 {
            for (_, client) in clients {
                for _ in 0..<5 where (try? await client.sync()) == nil {}
            }
        }
        outcome.impersonations = await impersonations(of: ids, credentials: credentials, through: servers.switchboard)
        await servers.stop()
        do {
            try await audit(clients, storage: servers.storage, into: &outcome)
        } catch {
            await servers.close()
            throw error
        }
        await servers.close()
        return outcome
    }

    /// Requests under each device's client id without a credential, and with the next device's
    /// credential: how many the server answered (each must be refused).
    private func impersonations(of ids: [String], credentials: [String: String], through server: SyncServerSwitch) async -> Int {
        var answered = 0
        for (index, id) in ids.enumerated() {
            let request = (try? SyncRequest(clientID: id, schemaVersion: 2, maxRevision: 0, changeSets: []).jsonBytes()) ?? []
            for credential in [nil, credentials[ids[(index + 1) % ids.count]]] where ids.count > 1 {
                if (try? await server.answer(request, credential: credential, now: 1)) != nil { answered += 1 }
            }
        }
        return answered
    }

    private func audit(_ clients: [(id: String, client: SyncClient)], storage: any SyncStorage, into outcome: inout Outcome) async throws {
        guard let storage = storage as? any SyncOutcomeAudit else { throw RunFailure("the sync store cannot list its outcomes") }
        let serverRecords = try await storage.liveRecords().map(Self.normalized)
        let schema = SyncTortureSchema.guarded(SyncTortureSchema.upgraded)
        outcome.violations =
            serverRecords.filter {
                $0.attributes?["label"]?.stringValue?.hasPrefix("trespass:") == true || $0.attributes?["score"] == .int(-1)
            }.count
        var outcomes: [String: Set<Int64>] = [:]
        for recorded in try await storage.outcomes() {
            outcomes[recorded.clientID, default: []].insert(recorded.sequence)
            if !recorded.applied { outcome.conflicts += 1 }
        }
        for (id, client) in clients {
            let saved = try client.nextSequence() - 1
            outcome.changes += Int(saved)
            let recorded = outcomes[id] ?? []
            outcome.lost += saved > 0 ? (1...saved).filter { !recorded.contains($0) }.count : 0
            let local = try client.allRecords().map(Self.normalized)
            let queued = try client.queuedChangeSets()
            let identity = SyncTortureSchema.identity(of: id)
            let readable = serverRecords.filter { schema.type(named: $0.type)?.mayRead($0, by: identity) ?? false }
            if local != readable || queued > 0 {
                outcome.diverged += 1
                let onlyLocal = Set(local).subtracting(readable).count, onlyServer = Set(readable).subtracting(local).count
                FileHandle.standardError.write(
                    Data(
                        "\(id) differs: \(onlyLocal) records only on the device, \(onlyServer) only on the server, \(queued) change sets queued\n"
                            .utf8
                    ))
            }
        }
        let labels = Dictionary(grouping: serverRecords.compactMap { $0.attributes?["label"]?.stringValue }, by: { $0 })
        outcome.duplicates = labels.values.map { $0.count - 1 }.reduce(0, +)
    }

    /// A record without its `null` attributes: a device reads back every column.
    package static func normalized(_ record: SyncRecord) -> SyncRecord {
        var record = record
        record.attributes = record.attributes?.filter { $0.value != .null }
        return record
    }

}

extension SyncClient {
    /// The local records of every type, by type and id.
    package func allRecords() throws -> [SyncRecord] {
        try schema.types.map(\.name).sorted().flatMap { try records($0) }
    }
}

/// A device in the torture's process: random local changes, random offline periods, restarts of
/// its client (a closed app), a sync after each change.
package struct SimulatedDevice {
    package let index: Int
    package let directory: URL
    package let seed: UInt64
    package let switchboard: SyncServerSwitch
    package let credential: String?
    package let now: @Sendable () -> Int64

    /// Runs the device until `deadline`: one device in five with the upgraded app from the start,
    /// the others updated at random once `upgradeAfter` has passed (the client opened again on
    /// its database with the upgraded schema, its queue as it was).
    /// - Returns: how many times its revision went backwards (but at its update, which fetches
    ///   the data set again), how many answers left its change sets waiting for the schema, and
    ///   how many of its change sets were refused as forbidden.
    package func run(until deadline: ContinuousClock.Instant, upgradeAfter: ContinuousClock.Instant) async throws -> (Int, Int, Int) {
        var random = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9)
        let id = "device-\(index)"
        let path = directory.appendingPathComponent("\(id).sqlite").path
        let transport = FaultySyncTransport(server: switchboard, credential: credential, now: now)
        var schema = index % 5 == 0 ? SyncTortureSchema.upgraded : SyncTortureSchema.schema
        var client = try SyncClient(path: path, clientID: id, schema: schema, transport: transport)
        let workload = SyncWorkload(clientID: id)
        var revision: Int64 = 0
        var regressions = 0
        var waited = 0
        var forbidden = 0
        // At least a few change sets each, however loaded the machine: the workload must collide.
        for step in 0..<1_000_000 where step < 3 || ContinuousClock.now < deadline {
            if Double.random(in: 0..<1, using: &random) < 0.08 { transport.setOffline(Bool.random(using: &random)) }
            let update = schema != SyncTortureSchema.upgraded && ContinuousClock.now > upgradeAfter && Double.random(in: 0..<1, using: &random) < 0.1
            if update {
                schema = SyncTortureSchema.upgraded
                revision = 0
            }
            if update || Double.random(in: 0..<1, using: &random) < 0.02 {
                client = try SyncClient(path: path, clientID: id, schema: schema, transport: transport)
            }
            _ = try workload.step(client, random: &random)
            if let report = try? await client.sync(maximumExchanges: 20) {
                if !report.pending.isEmpty { waited += 1 }
                forbidden += report.conflicts.filter { $0.reason == .forbidden }.count
            }
            let now = try client.maxRevision()
            if now < revision { regressions += 1 }
            revision = now
            await Task.yield()
        }
        transport.setOffline(false)
        return (regressions, waited, forbidden)
    }
}

extension SyncTorture.Outcome {
    /// The figures `hermes sync torture` prints, `processes` of the devices having run as processes.
    package func report(processes: Int) -> BenchReport {
        var report = BenchReport()
        report.add("devices", Double(devices), "devices (\(processes) as processes, killed \(kills) times; \(droppedAnswers) answers lost)")
        report.add("changes", Double(changes), "change sets the devices saved")
        report.add("conflicts", Double(conflicts), "change sets refused (must be at least 1)")
        report.add("waited", Double(waited), "answers that left change sets waiting for the server's schema version")
        report.add("diverged", Double(diverged), "devices whose rows differ from the server's (must be 0)")
        report.add("lost", Double(lost), "saved change sets without an outcome (must be 0)")
        report.add("duplicates", Double(duplicates), "records created twice (must be 0)")
        report.add("forbidden", Double(forbidden), "change sets of in-process devices refused by the access rules (their trespasses)")
        report.add("violations", Double(violations), "live records a trespass left (must be 0)")
        report.add("impersonations", Double(impersonations), "requests under another device's client id answered (must be 0)")
        return report
    }
}
