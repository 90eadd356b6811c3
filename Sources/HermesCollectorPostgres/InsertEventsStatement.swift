import PostgresNIO

/// A batch's rows as the named statement ``PostgresSchema/insertEvents``: each connection parses
/// it once, and after a few runs PostgreSQL keeps one generic plan for it. Unnamed, the statement
/// was parsed and planned again for every batch (about 0.4 ms of the server's CPU, several
/// microseconds per record). The server plans it again by itself after a schema change, such as
/// a new day partition.
struct InsertEventsStatement: PostgresPreparedStatement {
    /// The count of rows that were new.
    typealias Row = Int64

    /// The statement's name on each connection (postgres-nio's default, the type's name, is
    /// spelled out again on every run).
    static let name = "hermes_insert_events"
    static let sql = PostgresSchema.insertEvents

    /// The binds' types, in the order ``PostgresSchema/insertEvents`` lists them.
    static let bindingDataTypes: [PostgresDataType] =
        [.textArray, .textArray, .textArray, .int8Array, .textArray, .boolArray, .byteaArray, .text, .text, .int8]
        + [.textArray, .textArray, .textArray]
        + [.textArray, .textArray, .int8Array, .int8Array, .textArray, .textArray, .int8Array, .int8Array, .float8Array]
        + [.textArray, .textArray, .int8Array, .textArray, .textArray, .int8Array]
        + [.textArray, .int8Array, .int8Array, .text]

    let rows: EventRows

    func makeBindings() -> PostgresBindings {
        var binds = PostgresBindings(capacity: Self.bindingDataTypes.count)
        binds.append(rows.namespaces)
        binds.append(rows.reportIDs)
        binds.append(rows.monitorTypes)
        binds.append(rows.createTimes)
        binds.append(rows.metas)
        binds.append(rows.hasPayloads)
        binds.append(rows.payloads)
        binds.append(rows.deviceID)
        binds.append(rows.batchID)
        binds.append(rows.receivedAt)
        binds.append(rows.userIDs)
        binds.append(rows.sessionIDs)
        binds.append(rows.appVersions)
        binds.append(rows.cells.namespaces)
        binds.append(rows.cells.reportIDs)
        binds.append(rows.cells.widths)
        binds.append(rows.cells.starts)
        binds.append(rows.cells.measures)
        binds.append(rows.cells.keys)
        binds.append(rows.cells.buckets)
        binds.append(rows.cells.failures)
        binds.append(rows.cells.milliseconds)
        binds.append(rows.losses.namespaces)
        binds.append(rows.losses.reportIDs)
        binds.append(rows.losses.hours)
        binds.append(rows.losses.appVersions)
        binds.append(rows.losses.reasons)
        binds.append(rows.losses.counts)
        binds.append(rows.queueDevices)
        binds.append(rows.queueTimes)
        binds.append(rows.queueDepths)
        binds.append(rows.appKeyID)
        return binds
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 {
        try row.decode(Int64.self)
    }
}
