import Crypto
import HermesWire

extension NamespaceConfiguration {
    /// The tag of a namespace that does not exist (yet), for an editor that creates one.
    static let absentTag = "absent"

    /// A tag of this configuration's content (the SHA-256 of its JSON, 16 hex digits): what an
    /// editor sends back as `If-Match`, so that a save based on an older content is refused.
    var entityTag: String {
        let bytes = (try? json.jsonBytes()) ?? []
        return SHA256.hash(data: bytes).prefix(8).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
