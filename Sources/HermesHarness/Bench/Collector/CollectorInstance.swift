package import Foundation

/// One `hermes collector serve` child of the collector benchmark, on a free port, its log in a
/// file; stopped with SIGTERM (a graceful shutdown).
package final class CollectorInstance {
    package let port: Int
    private let process: Process

    private init(port: Int, process: Process) {
        self.port = port
        self.process = process
    }

    /// Starts a collector on `storage` and returns once it has logged the port it listens on.
    /// - Parameters:
    ///   - storage: the `--storage` value.
    ///   - aesKey: the `--aes-key` value.
    ///   - log: the file its standard error goes to.
    package static func start(storage: String, aesKey: String, log: URL) async throws -> CollectorInstance {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = try ChildProcess.hermesExecutable()
        process.arguments = [
            "collector", "serve", "--storage", storage, "--port", "0",
            "--app-key", "bench", "--admin-token", "bench", "--aes-key", aesKey,
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        // The collector logs "… address=http://127.0.0.1:<port> … collector listening" once it
        // listens: read the log every 20 ms, for 30 s at most.
        let marker = "address=http://127.0.0.1:"
        for _ in 0..<1_500 {
            if let text = try? String(contentsOf: log, encoding: .utf8), let range = text.range(of: marker) {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), port > 0 { return CollectorInstance(port: port, process: process) }
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { process.terminate() }
        let tail = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").suffix(5).joined(separator: "\n") ?? ""
        throw RunFailure("a collector did not start listening:\n\(tail)")
    }

    /// Stops it with SIGTERM and waits for it to exit.
    package func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
