import HermesWire
import Hummingbird
import Logging

/// Namespaces, read by viewers and changed by editors:
/// - `GET /console/api/namespaces`: each namespace's configuration and tag, and the field guide;
/// - `POST /console/api/namespaces/{name}/preview` `{configuration}`: what saving would store,
///   clamped, and what clamping changed (nothing is saved);
/// - `PUT /console/api/namespaces/{name}` `{configuration, etag}`: saves it as the next
///   revision unless the namespace changed since `etag` (412 `editConflict`);
/// - `GET /console/api/namespaces/{name}/history`: its changes, newest first;
/// - `POST /console/api/changes/{id}/revert` `{etag}`: puts back the configuration that change
///   replaced (removing the namespace if the change made it).
struct ConsoleNamespaceRoutes {
    let gate: ConsoleGate
    let live: LiveConfiguration
    let logger: Logger

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.get("/console/api/namespaces") { request, _ -> Response in
            _ = try await gate.require(.viewer, request)
            let document = await live.document
            let namespaces = document.namespaces.keys.sorted().map { name -> JSONValue in
                let configuration = document.namespaces[name]!
                return ["name": .string(name), "etag": .string(configuration.entityTag), "configuration": configuration.json]
            }
            return try .json(["revision": .int(Int64(document.revision)), "namespaces": .array(namespaces), "fields": NamespaceFieldGuide.json])
        }
        router.post("/console/api/namespaces/{name}/preview") { request, context -> Response in
            _ = try await gate.require(.viewer, request)
            let name = try Self.name(context)
            let (clamped, adjustments) = try Self.configuration(try await request.consoleJSON(), name).clamped(namespace: name)
            return try .json(["configuration": clamped.json, "adjustments": Self.json(adjustments)])
        }
        router.put("/console/api/namespaces/{name}") { request, context -> Response in
            let session = try await gate.require(.editor, request)
            let name = try Self.name(context)
            let body = try await request.consoleJSON()
            let (document, adjustments) = try await live.setNamespace(
                name, try Self.configuration(body, name), ifMatch: try body.requiredString("etag"), by: edit(session))
            logger.info(
                "namespace configuration set", metadata: ["namespace": "\(name)", "revision": "\(document.revision)", "by": "\(session.userName)"])
            return try saved(name, document, adjustments)
        }
        router.get("/console/api/namespaces/{name}/history") { request, context -> Response in
            _ = try await gate.require(.viewer, request)
            let name = try Self.name(context)
            let changes = try await withStorageErrors("read the history") { try await gate.storage.configurationChanges(namespace: name, limit: 100) }
            return try .json(["changes": .array(changes.map(Self.json))])
        }
        router.post("/console/api/changes/{id}/revert") { request, context -> Response in
            let session = try await gate.require(.editor, request)
            guard let id = context.parameters.get("id").flatMap(Int64.init) else { throw CollectorError(.invalidQuery, "the path needs a change id") }
            let etag = try await request.consoleJSON().requiredString("etag")
            guard let change = try await withStorageErrors("read the change", { try await gate.storage.configurationChange(id: id) }) else {
                throw CollectorError(.notFound, "there is no change \(id)")
            }
            guard let before = change.before else {
                let document = try await live.removeNamespace(change.namespace, by: edit(session))
                return try .json(["namespace": .string(change.namespace), "revision": .int(Int64(document.revision)), "removed": true])
            }
            let configuration = try Self.configuration(["configuration": before], change.namespace)
            let (document, adjustments) = try await live.setNamespace(change.namespace, configuration, ifMatch: etag, by: edit(session))
            logger.info(
                "namespace configuration reverted", metadata: ["namespace": "\(change.namespace)", "change": "\(id)", "by": "\(session.userName)"])
            return try saved(change.namespace, document, adjustments)
        }
    }

    private func edit(_ session: ConsoleSession) -> ConfigurationEdit {
        ConfigurationEdit(author: session.userName, time: gate.wallClock(), logger: logger)
    }

    private func saved(_ name: String, _ document: ConfigurationDocument, _ adjustments: [ConfigurationAdjustment]) throws -> Response {
        let configuration = document.namespaces[name]
        return try .json([
            "namespace": .string(name), "revision": .int(Int64(document.revision)), "configuration": configuration?.json ?? .null,
            "etag": .string(configuration?.entityTag ?? NamespaceConfiguration.absentTag), "adjustments": Self.json(adjustments),
        ])
    }

    private static func name(_ context: BasicRequestContext) throws(CollectorError) -> String {
        try NamespaceName.checked(context.parameters.get("name"))
    }

    private static func configuration(_ body: [String: JSONValue], _ name: String) throws(CollectorError) -> NamespaceConfiguration {
        guard let object = body["configuration"] else { throw CollectorError(.invalidQuery, "the body needs a configuration object") }
        do throws(HermesWireError) {
            return try NamespaceConfiguration(jsonBytes: try object.jsonBytes(), name: name)
        } catch {
            throw CollectorError(error)
        }
    }

    private static func json(_ adjustments: [ConfigurationAdjustment]) -> JSONValue {
        .array(adjustments.map { ["field": .string($0.field), "original": .double($0.original), "adjusted": .double($0.adjusted)] })
    }

    private static func json(_ change: ConfigurationChange) -> JSONValue {
        [
            "id": .int(change.id), "revision": .int(Int64(change.revision)), "author": .string(change.author), "changedAt": .int(change.changedAt),
            "before": change.before ?? .null, "after": change.after ?? .null,
        ]
    }
}
