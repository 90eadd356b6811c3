import Crypto
import HermesWire

extension NamespaceConfiguration {
    /// The tag of a namespace that does not exist (yet), for an editor that creates one.
    static let absentTag = "absent"

    /// A tag of this configuration's content (the SHA-256 of its JSON, 16 hex digits): what an
    /// editor sends back as `If-Match`, so that a save based on an older content is refused.
    var entityTag: String {
        Hex.string(SHA256.hash(data: (try? json.jsonBytes()) ?? []).prefix(8))
    }
}
