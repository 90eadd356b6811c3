import HermesCollector
import PostgresNIO

/// Errors of the PostgreSQL store as ``CollectorError``s, and the retry of the two kinds a
/// transaction may simply run again.
enum PostgresErrors {
    /// `deadlock_detected` and `serialization_failure`: the transaction was rolled back whole.
    static let retryableStates: Set<String> = ["40P01", "40001"]
    /// How many times a transaction runs before its error is returned.
    static let attempts = 4

    /// Runs `work`, again after a deadlock or serialization failure (up to ``attempts`` times),
    /// and turns its error into ``CollectorError/Code/storageFailed`` (a ``CollectorError`` it
    /// throws passes unchanged).
    static func run<T: Sendable>(
        _ action: String,
        isolation: isolated (any Actor)? = #isolation,
        _ work: () async throws -> T
    ) async throws(CollectorError) -> T {
        var attempt = 1
        while true {
            do {
                return try await work()
            } catch {
                let underlying = unwrap(error)
                if let collectorError = underlying as? CollectorError { throw collectorError }
                if attempt < attempts, let state = sqlState(underlying), retryableStates.contains(state) {
                    attempt += 1
                    try? await Task.sleep(for: .milliseconds(5 * attempt))
                    continue
                }
                throw CollectorError(.storageFailed, "could not \(action): \(describe(underlying))", underlying: underlying)
            }
        }
    }

    /// The error inside a transaction error: the closure's, else the commit's, else `BEGIN`'s.
    static func unwrap(_ error: any Error) -> any Error {
        guard let transaction = error as? PostgresTransactionError else { return error }
        return transaction.closureError ?? transaction.commitError ?? transaction.beginError ?? error
    }

    /// The SQLSTATE of a server error, or `nil`.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// An error's description without the query, its arguments or the server's detail (which
    /// can quote key values): the SQLSTATE and message of a server error, else the error's kind.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: type(of: error)) }
        if let state = error.serverInfo?[.sqlState] {
            return "PostgreSQL error \(state): \(error.serverInfo?[.message] ?? "no message")"
        }
        return "PostgreSQL client error \(error.code)"
    }

    /// Runs `work`, failing with ``CollectorError/Code/storageFailed`` if it takes longer than
    /// `limit` (a database that does not answer while a store opens).
    static func withDeadline(_ limit: Duration, _ action: String, _ work: @escaping @Sendable () async throws -> Void) async throws(CollectorError) {
        do {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await work(); return true
                }
                group.addTask {
                    try await Task.sleep(for: limit); return false
                }
                let finished = try await group.next() ?? false
                group.cancelAll()
                if !finished {
                    throw CollectorError(.storageFailed, "could not \(action) within \(limit)")
                }
            }
        } catch let error as CollectorError {
            throw error
        } catch {
            throw CollectorError(.storageFailed, "could not \(action): \(describe(unwrap(error)))", underlying: error)
        }
    }
}
