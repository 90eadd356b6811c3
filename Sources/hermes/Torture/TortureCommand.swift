import ArgumentParser

/// `hermes torture`: harnesses that try to break the delivery promise — a record that `send`
/// accepted reaches the collector and is stored exactly once.
struct TortureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "torture",
        abstract: "Try to break Hermes' delivery promise: kill the app, break the network.",
        subcommands: [
            CrashTortureCommand.self, BurstTortureCommand.self, FaultTortureCommand.self, HostileTortureCommand.self, CrashChildCommand.self,
            BurstChildCommand.self,
        ]
    )
}
