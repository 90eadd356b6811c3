import HermesWire
import Hummingbird
import Logging

/// The admin API: `PUT` and `DELETE /v1/admin/namespaces/{name}/config`, each bumping the
/// revision by one. Registered behind the admin token (``AuthenticationMiddleware``).
struct AdminRoutes {
    static let path: RouterPath = "/v1/admin/namespaces/{name}/config"

    let live: LiveConfiguration
    let maxBodyBytes: Int
    let wallClock: @Sendable () -> Int64
    let logger: Logger

    /// The history's author of changes made through the admin API.
    static let author = "admin-token"

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.put(Self.path) { request, context -> Response in
            let name = try Self.namespace(context)
            let body = try await request.bodyBytes(upTo: maxBodyBytes)
            let configuration: NamespaceConfiguration
            do throws(HermesWireError) {
                configuration = try NamespaceConfiguration(jsonBytes: body, name: name)
            } catch {
                throw CollectorError(error)
            }
            let (document, adjustments) = try await live.setNamespace(name, configuration, by: edit)
            logger.info(
                "namespace configuration set",
                metadata: [
                    "namespace": "\(name)", "revision": "\(document.revision)", "adjustments": "\(adjustments.count)",
                ])
            return try .json([
                "namespace": .string(name),
                "revision": .int(Int64(document.revision)),
                "configuration": document.namespaces[name]?.json ?? .null,
                "adjustments": .array(
                    adjustments.map { adjustment in
                        ["field": .string(adjustment.field), "original": .double(adjustment.original), "adjusted": .double(adjustment.adjusted)]
                    }),
            ])
        }
        router.delete(Self.path) { request, context -> Response in
            let name = try Self.namespace(context)
            let document = try await live.removeNamespace(name, by: edit)
            logger.info("namespace removed", metadata: ["namespace": "\(name)", "revision": "\(document.revision)"])
            return try .json(["namespace": .string(name), "revision": .int(Int64(document.revision))])
        }
    }

    private var edit: ConfigurationEdit { ConfigurationEdit(author: Self.author, time: wallClock(), logger: logger) }

    private static func namespace(_ context: BasicRequestContext) throws(CollectorError) -> String {
        try NamespaceName.checked(context.parameters.get("name"))
    }
}
