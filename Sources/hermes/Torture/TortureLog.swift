import Logging

/// The torture commands' logger: errors only, so that the figures stay readable.
enum TortureLog {
    static var quiet: Logger {
        var logger = Logger(label: "hermes.torture")
        logger.logLevel = .error
        return logger
    }
}
