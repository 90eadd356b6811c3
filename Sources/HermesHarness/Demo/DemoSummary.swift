package import Foundation

/// What `hermes demo --json` prints: one object, built here so that later figures are one
/// more property.
package struct DemoSummary: Codable, Equatable {
    /// What the app sent and what the collector stored, in one namespace.
    package struct NamespaceCounts: Codable, Equatable {
        package var sent: Int
        package var accepted: Int
        /// `nil` when the collector could not be read back.
        package var stored: Int?
    }

    package var namespaces: [String: NamespaceCounts] = [:]
    /// Distinct `SESSION_ID`s among the records at the collector.
    package var sessions: Int = 0
    /// Distinct non-null `USER_ID`s among the records at the collector.
    package var users: Int = 0
    /// Accepted records not at the collector; `nil` when the collector could not be read back.
    package var missing: Int?
    /// The crashes the demo's child process really had, as the collector holds them.
    package var capturedCrashes: [DemoCrash.Captured] = []

    /// The JSON text: keys sorted, in snake case.
    package func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
