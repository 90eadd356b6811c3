import Foundation
@testable import Hermes
import HermesWire
import Logging

extension Harness {
    /// The quiet `hermes` configuration that also monitors the SDK's own session and identify records.
    static let sessionHermes: NamespaceConfiguration = {
        var configuration = Harness.quietHermes
        configuration.monitorList += [MonitorType.sessionStart, MonitorType.sessionEnd, MonitorType.identify].map { MonitorItem(type: $0) }
        return configuration
    }()

    /// A quiet client (no round starts on its own) whose `hermes` namespace records sessions,
    /// with `adjust` applied to its configuration.
    func identityClient(
        transport: (any Transport)? = nil,
        network: any NetworkMonitor = StaticNetworkMonitor(.unmetered),
        logger: Logger = Logger(label: "hermes.tests"),
        _ adjust: (inout HermesClient.Configuration) -> Void = { _ in }
    ) throws -> HermesClient {
        var settings = configuration(defaults: ["hermes": Harness.sessionHermes, "JZ": Harness.jz], transport: transport, network: network)
        adjust(&settings)
        return try HermesClient(configuration: settings, logger: logger)
    }
}
