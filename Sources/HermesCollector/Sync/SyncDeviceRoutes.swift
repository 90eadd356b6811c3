import HermesWire
import Hummingbird
import Logging

/// The admin API of device credentials (``SyncDevice``), behind the admin token:
/// `POST /v1/admin/sync/devices` issues one (`{"clientID": …, "user": …, "roles": […]}`, answered
/// 201 with the secret, shown this once), `GET` lists them, and
/// `DELETE /v1/admin/sync/devices/{clientID}` revokes one (404 when there is none to revoke).
struct SyncDeviceRoutes {
    static let path: RouterPath = "/v1/admin/sync/devices"

    let storage: any SyncStorage
    let maxBodyBytes: Int
    let wallClock: @Sendable () -> Int64
    let logger: Logger

    func register(on router: some RouterMethods<BasicRequestContext>) {
        router.post(Self.path) { request, _ -> Response in
            let body = try await request.bodyBytes(upTo: maxBodyBytes)
            guard let fields = try? JSONValue(parsing: body), let clientID = fields["clientID"]?.stringValue,
                let user = fields["user"]?.stringValue
            else {
                throw CollectorError(.packet(.invalidJSON), #"a device is {"clientID": "…", "user": "…", "roles": ["…"]}"#)
            }
            var roles: [String] = []
            if case .array(let items) = fields["roles"] { roles = items.compactMap(\.stringValue) }
            let (device, secret) = try SyncDevice.issue(clientID: clientID, user: user, roles: roles, now: wallClock())
            try await storage.addDevice(device)
            logger.info("sync device credential issued", metadata: ["client_id": "\(clientID)", "user": "\(user)"])
            var answer = Self.json(device)
            answer["credential"] = .string(secret)
            return try .json(.object(answer), status: .created)
        }
        router.get(Self.path) { _, _ -> Response in
            try .json(["devices": .array(try await storage.devices().map { .object(Self.json($0)) })])
        }
        router.delete("\(Self.path)/{clientID}") { _, context -> Response in
            let clientID = context.parameters.get("clientID") ?? ""
            guard try await storage.revokeDevice(clientID: clientID, now: wallClock()) else {
                throw CollectorError(.notFound, "client id \(clientID) has no credential to revoke")
            }
            logger.info("sync device credential revoked", metadata: ["client_id": "\(clientID)"])
            return try .json(["clientID": .string(clientID), "revoked": .bool(true)])
        }
    }

    /// A credential as the API shows it: never its secret or hash.
    static func json(_ device: SyncDevice) -> [String: JSONValue] {
        [
            "clientID": .string(device.clientID), "user": .string(device.user), "roles": .array(device.roles.map(JSONValue.string)),
            "createdAt": .int(device.createdAt), "revokedAt": device.revokedAt.map(JSONValue.int) ?? .null,
        ]
    }
}
