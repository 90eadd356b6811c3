/// Where a collector keeps its records: a SQLite file or a PostgreSQL database, as an operator
/// names it in one string.
///
/// `collector.sqlite` and `sqlite:/var/lib/hermes/collector.sqlite` name SQLite files;
/// `postgres://…` and `postgresql://…` name PostgreSQL databases. Open one with
/// `StorageLocation.open(logger:)` from `HermesCollectorPostgres`, which serves both.
///
/// ```swift
/// let location = StorageLocation("postgres://hermes@db.internal/hermes")
/// ```
public enum StorageLocation: Equatable, Sendable {
    /// A SQLite file at `path`.
    case sqlite(path: String)
    /// A PostgreSQL database at `url` (`postgres://…` or `postgresql://…`).
    case postgres(url: String)

    /// The environment variable `hermes collector serve` reads when `--storage` is not given.
    public static let environmentVariable = "HERMES_STORAGE"

    /// Reads a location: a `postgres://` or `postgresql://` URL, `sqlite:PATH`, or a plain path
    /// (a SQLite file).
    public init(_ text: String) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if text.hasPrefix("sqlite:") {
            self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The PostgreSQL URL, or `nil` for a SQLite file.
    public var postgresURL: String? {
        if case .postgres(let url) = self { return url }
        return nil
    }

    /// Record sync's SQLite file beside the collector's database at `path`
    /// (`collector.sqlite` → `collector-sync.sqlite`).
    public static func syncPath(besides path: String) -> String {
        path.hasSuffix(".sqlite") ? String(path.dropLast(".sqlite".count)) + "-sync.sqlite" : path + "-sync"
    }
}
