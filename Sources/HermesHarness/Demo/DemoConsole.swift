import Foundation
package import HermesCollector

/// The sign-in `hermes demo --serve` prints: a console user made for the run, and how to send
/// more records to the collector that keeps running.
package enum DemoConsole {
    /// The console user's name.
    package static let userName = "demo"

    /// Makes the `demo` admin with a random password in the demo's store.
    /// - Returns: the lines to print: the console's URL, the sign-in, and the command that sends more.
    package static func open(storage: SQLiteCollectorStorage, port: Int, appKey: String, key: String) async throws -> String {
        let password = Hex.string(Hex.randomBytes(8))
        let hash = try await PasswordHasher.hash(password, cost: ConsoleSettings().passwordCost)
        try await storage.saveConsoleUser(
            ConsoleUser(name: userName, role: .admin, passwordHash: hash, createdAt: CollectorConfiguration.systemWallClock()))
        let url = "http://127.0.0.1:\(port)"
        return """

            The collector keeps running with the demo's records. Open its console:
              \(url)/console   user \(userName), password \(password)
            Send more records to it:
              hermes demo --collector \(url) --key \(key) --app-key \(appKey)
            Ctrl-C stops it (the demo's store is temporary and goes with it).
            """
    }
}
