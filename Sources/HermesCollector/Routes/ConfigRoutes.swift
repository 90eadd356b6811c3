import Foundation
import HermesWire
import Hummingbird

/// `GET /v1/config`: the configuration document, with an `ETag` of its revision and 304 for a
/// client that already has it. Open to anyone: the document holds upload settings, no secrets,
/// and apps fetch it before they can prove anything.
struct ConfigRoutes {
    let live: LiveConfiguration

    func register(on router: Router<BasicRequestContext>) {
        router.get(RouterPath(stringLiteral: HermesPath.config)) { request, _ -> Response in
            let document = await live.document
            let eTag = "\"\(document.revision)\""
            if Self.ifNoneMatch(request.headers[values: .ifNoneMatch], matches: eTag) {
                return Response(status: .notModified, headers: [.eTag: eTag])
            }
            return .json(bytes: document.jsonBytes(), headers: [.eTag: eTag])
        }
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
