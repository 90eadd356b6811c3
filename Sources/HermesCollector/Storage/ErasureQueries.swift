/// What an erasure removes beside the records, the same on SQLite and PostgreSQL.
package enum ErasureQueries {
    /// The statements that remove what the console keeps of the subject by id, each binding the id.
    package static func related(_ subject: ErasureSubject) -> [(sql: String, id: String)] {
        var statements = [("DELETE FROM crash_members WHERE \(subject.column) = ?", subject.id)]
        if case .device = subject { statements.append(("DELETE FROM device_queues WHERE device = ?", subject.id)) }
        return statements
    }
}
