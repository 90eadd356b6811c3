import Foundation
import HermesWire
import Hummingbird

/// `GET /v1/config`: the configuration document, with an `ETag` of its revision and 304 for a
/// client that already has it. Open to anyone: the document holds upload settings, no secrets,
/// and apps fetch it before they can prove anything.
///
/// The document is resolved for the device and app version the request names
/// (`X-Hermes-Device-Id`, `X-Hermes-App-Version`): each namespace's overrides that apply are laid
/// over it (``ConfigurationOverride``), and the ETag names them too, so that a device moved in
/// or out of a rollout gets the new document though the revision did not change.
struct ConfigRoutes {
    let live: LiveConfiguration

    func register(on router: Router<BasicRequestContext>) {
        router.get(RouterPath(stringLiteral: HermesPath.config)) { request, _ -> Response in
            let target = ConfigurationTarget(
                deviceID: request.headers[.hermesDeviceID], appVersion: request.headers[.hermesAppVersion])
            let (document, applied) = await live.document.resolved(for: target)
            let eTag = Self.eTag(revision: document.revision, applied: applied)
            if Self.ifNoneMatch(request.headers[values: .ifNoneMatch], matches: eTag) {
                return Response(status: .notModified, headers: [.eTag: eTag])
            }
            return .json(bytes: document.jsonBytes(), headers: [.eTag: eTag])
        }
    }

    /// `"<revision>"`, or with overrides applied `"<revision>-<hash of their names>"`.
    static func eTag(revision: Int, applied: [String]) -> String {
        guard !applied.isEmpty else { return "\"\(revision)\"" }
        return "\"\(revision)-\(String(ConfigurationOverride.fnv1a(applied.joined(separator: "\n")), radix: 16))\""
    }

    /// Whether any `If-None-Match` value (comma-separated, weak or strong, or `*`) names `eTag`.
    static func ifNoneMatch(_ values: [String], matches eTag: String) -> Bool {
        values.lazy.flatMap { $0.split(separator: ",") }.contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            let strong = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
            return strong == eTag || strong == "*"
        }
    }
}
