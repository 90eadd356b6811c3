package import Logging

/// The torture commands' logger: errors only, so that the figures stay readable.
package enum TortureLog {
    package static var quiet: Logger {
        var logger = Logger(label: "hermes.torture")
        logger.logLevel = .error
        return logger
    }
}
