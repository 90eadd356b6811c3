import ArgumentParser
import Foundation
import HermesHarness

/// `hermes events`: a running collector's records, filtered, as NDJSON, CSV or a table; with
/// `--follow`, then the records that arrive. The work is ``EventListing``'s.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print a collector's stored records (admin token), oldest first.",
        discussion: """
            Reads GET /v1/events page after page until no record is left (or --limit); --follow then polls \
            GET /v1/events/arrivals every second for new records until --limit or Ctrl-C. ndjson and csv print \
            what GET /v1/events/export writes. A refused request prints the collector's error code and reason \
            and exits non-zero.
            """
    )

    @Option(help: "Base URL of the collector, e.g. http://127.0.0.1:8080.")
    var collector: String

    @Option(help: "The collector's admin token (default: $HERMES_ADMIN_TOKEN).")
    var token: String?

    @Option(help: "Only this namespace.") var namespace: String?
    @Option(help: "Only this MONITOR_TYPE.") var type: String?
    @Option(help: "Only records created at or after this time: ms since 1970, or ISO 8601 (2026-11-26T08:00:00Z).") var since: String?
    @Option(help: "Only records created before this time (same forms as --since).") var until: String?
    @Option(help: "Only this USER_ID.") var user: String?
    @Option(help: "Only this SESSION_ID.") var session: String?
    @Option(help: "Only records uploaded with this device id.") var device: String?
    @Option(help: "Only this APP_VERSION.") var appVersion: String?
    @Option(help: ArgumentHelp("Only records whose meta has this key with this value (repeatable).", valueName: "key=value"))
    var meta: [String] = []

    @Option(help: "ndjson, csv or table.") var format = "ndjson"
    @Option(help: "The most records to print.") var limit: Int?
    @Flag(help: "After the stored records, keep printing those that arrive.") var follow = false

    func validate() throws {
        guard let url = URL(string: collector), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil else {
            throw ValidationError("--collector must be an http:// or https:// URL such as http://127.0.0.1:8080")
        }
        guard adminToken != nil else { throw ValidationError("give the admin token with --token or $HERMES_ADMIN_TOKEN") }
        guard EventListing.Format(rawValue: format) != nil else { throw ValidationError("--format must be ndjson, csv or table") }
        for (name, value) in [("--since", since), ("--until", until)] where value.map(EventFilter.time) == .some(nil) {
            throw ValidationError("\(name) must be ms since 1970 or an ISO 8601 time such as 2026-11-26T08:00:00Z")
        }
        guard meta.allSatisfy({ $0.contains("=") }) else { throw ValidationError("--meta must read key=value") }
        guard limit ?? 1 >= 1 else { throw ValidationError("--limit must be at least 1") }
    }

    private var adminToken: String? {
        token ?? ProcessInfo.processInfo.environment["HERMES_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The listing the options ask for.
    var listing: EventListing {
        var filter = EventFilter()
        (filter.namespace, filter.type, filter.user, filter.session) = (namespace, type, user, session)
        (filter.device, filter.appVersion, filter.meta) = (device, appVersion, meta)
        (filter.since, filter.until) = (since.flatMap(EventFilter.time), until.flatMap(EventFilter.time))
        return EventListing(
            client: EventsClient(baseURL: URL(string: collector)!, token: adminToken ?? ""), filter: filter,
            format: EventListing.Format(rawValue: format) ?? .ndjson, limit: limit, follow: follow)
    }

    func run() async throws {
        do {
            try await listing.run { text in
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        } catch let failure as RunFailure {
            FileHandle.standardError.write(Data("hermes events: \(failure.description)\n".utf8))
            throw ExitCode.failure
        }
    }
}
