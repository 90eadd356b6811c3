public import ArgumentParser
public import Logging

/// `--log-level debug`: a level by its name.
extension Logger.Level: @retroactive ExpressibleByArgument {}
