import HermesWire

/// The SQL of one record type's local table, written once when the client opens: GRDB caches a
/// prepared statement by its text, and building that text for every record cost more than
/// running the statement (an answer brings hundreds of records).
///
/// The table is `<type>(id INTEGER PRIMARY KEY, revision INTEGER NOT NULL, <attribute>…)`, with
/// an index on each relationship.
struct SyncTableSQL: Sendable {
    let type: SyncEntityType
    /// `CREATE TABLE` and `CREATE INDEX` statements, each if missing.
    let create: [String]
    /// One row by id.
    let select: String
    /// Every row, by id.
    let selectAll: String
    /// The revision of one row.
    let revision: String
    /// Inserts or replaces a row: id, revision, then the attributes in schema order.
    let save: String
    /// Inserts or updates a row, as ``save`` does, except that a row at a newer revision than
    /// the one given stays as it is.
    let saveUnlessNewer: String
    /// Deletes one row by id.
    let delete: String
    /// Sets the revision (first argument) of one row (second).
    let setRevision: String
    /// Changes a row's id (first argument: new, second: old).
    let rename: String
    /// For each attribute of any type that refers to this type: repoints the foreign keys
    /// holding the second argument to the first.
    let renameReferences: [String]
    /// Deletes every row with a server id; a kept-id list in parentheses follows.
    let deleteServerRowsExcept: String

    init(_ type: SyncEntityType, in schema: SyncSchema) {
        self.type = type
        let table = Self.quoted(type.name)
        let names = type.attributes.map { Self.quoted($0.name) }
        let columns = type.attributes.map { "\(Self.quoted($0.name)) \(Self.affinity($0.kind))" }
        create =
            ["CREATE TABLE IF NOT EXISTS \(table)(id INTEGER PRIMARY KEY, revision INTEGER NOT NULL\(columns.map { ", " + $0 }.joined()))"]
            + type.attributes.filter { $0.referencedType != nil }.map { attribute in
                "CREATE INDEX IF NOT EXISTS \(Self.quoted("\(type.name)_\(attribute.name)")) ON \(table)(\(Self.quoted(attribute.name)))"
            }
        select = "SELECT * FROM \(table) WHERE id = ?"
        selectAll = "SELECT * FROM \(table) ORDER BY id"
        revision = "SELECT revision FROM \(table) WHERE id = ?"
        let insert = "INTO \(table)(id, revision\(names.map { ", " + $0 }.joined())) VALUES (?, ?\(String(repeating: ", ?", count: names.count)))"
        save = "INSERT OR REPLACE " + insert
        saveUnlessNewer =
            "INSERT " + insert + " ON CONFLICT(id) DO UPDATE SET revision = excluded.revision"
            + names.map { ", \($0) = excluded.\($0)" }.joined() + " WHERE \(table).revision <= excluded.revision"
        delete = "DELETE FROM \(table) WHERE id = ?"
        setRevision = "UPDATE \(table) SET revision = ? WHERE id = ?"
        rename = "UPDATE \(table) SET id = ? WHERE id = ?"
        renameReferences = schema.references(to: type.name).map { reference in
            "UPDATE \(Self.quoted(reference.type)) SET \(Self.quoted(reference.attribute)) = ? WHERE \(Self.quoted(reference.attribute)) = ?"
        }
        deleteServerRowsExcept = "DELETE FROM \(table) WHERE id > 0 AND id NOT IN "
    }

    /// Adds `attribute`'s column to the table of `type`, made under a schema that lacked it.
    static func addColumn(_ attribute: SyncAttribute, to type: String) -> String {
        "ALTER TABLE \(quoted(type)) ADD COLUMN \(quoted(attribute.name)) \(affinity(attribute.kind))"
    }

    private static func affinity(_ kind: SyncAttribute.Kind) -> String {
        switch kind {
        case .string: "TEXT"
        case .double: "REAL"
        case .integer, .reference, .bool: "INTEGER"
        }
    }

    /// `name` as an SQL identifier.
    private static func quoted(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
