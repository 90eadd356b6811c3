/// How record sync compresses its messages over HTTP, shared by the device and the collector:
/// gzip both ways, for bodies larger than ``smallestCompressed`` bytes.
///
/// The device gzips a request above that size (`Content-Encoding: gzip`) and always sends
/// `Accept-Encoding: gzip`; the collector inflates a gzipped request to at most the bytes a plain
/// one may have, and gzips an answer above that size when the request accepts it. An answer is
/// told gzipped by its first two bytes (``isGzip(_:)``), so a platform HTTP stack that already
/// inflated it changes nothing.
public enum SyncCompression: Sendable {
    /// Bodies of at most this many bytes go as they are: gzip would save a few bytes for the CPU.
    public static let smallestCompressed = 1_024

    /// Whether a `Content-Encoding` value says gzip.
    public static func isGzip(_ contentEncoding: String?) -> Bool {
        contentEncoding.map { token($0) == "gzip" } ?? false
    }

    /// Whether an `Accept-Encoding` value accepts gzip (`gzip`, `gzip;q=0.5`; not `gzip;q=0`).
    public static func accepts(_ acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        return acceptEncoding.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map(token)
            guard parts.first == "gzip" else { return false }
            guard let quality = parts.dropFirst().first(where: { $0.hasPrefix("q=") }) else { return true }
            return Double(quality.dropFirst(2)).map { $0 > 0 } ?? false
        }
    }

    /// `text` without surrounding spaces, in lowercase.
    private static func token(_ text: some StringProtocol) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()).lowercased()
    }

    /// Whether `bytes` start as a gzip member does (`1f 8b`); JSON never does.
    public static func isGzip(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0x1f, 0x8b])
    }
}
