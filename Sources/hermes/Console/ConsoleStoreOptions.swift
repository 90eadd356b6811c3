import ArgumentParser
import Foundation
import HermesCollector
import Logging

/// The collector's store the console commands work on: the one `hermes collector serve` uses.
struct ConsoleStoreOptions: ParsableArguments {
    @Option(help: "The collector's store: a SQLite file or a postgres:// URL (default: $\(StorageLocation.environmentVariable)).")
    var storage: String?

    var location: StorageLocation {
        get throws {
            guard let text = storage ?? ProcessInfo.processInfo.environment[StorageLocation.environmentVariable] else {
                throw ValidationError("give --storage (a SQLite file or a postgres:// URL), or set \(StorageLocation.environmentVariable)")
            }
            return StorageLocation(text)
        }
    }

    var logger: Logger {
        var logger = Logger(label: "hermes.console")
        logger.logLevel = .warning
        return logger
    }
}
