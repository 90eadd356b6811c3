import Crypto

/// How the collector names an app key where it must not show it: in metrics, and with each
/// record it stores (`events.app_key_id`): the first 8 hex digits of the key's SHA-256.
enum AppKeyID {
    /// The id of `key`.
    static func of(_ key: String) -> String {
        String(Hex.string(SHA256.hash(data: Array(key.utf8))).prefix(8))
    }
}
