import Crypto
public import HermesWire

/// What puts crash records in one group: the signal and the top three frames of the app's own
/// code, as a stable digest, with a title and the culprit frame for people.
///
/// The frames are read from an `appCrash` record's payload, the stack as text (see
/// `docs/monitoring.md`). Frames in system and runtime libraries (`libswiftCore`, `libc`,
/// `UIKitCore`, … see `SystemImages`) and in no image (`???`) are passed over; when no frame is
/// left, the top three frames of any image are used. Each frame counts by its image's name and its
/// function without address or offset, so the same crash in another run, at other addresses, has
/// the same signature. The signal is the meta's `signal`, else the stack's heading, else
/// `unknown`.
///
/// Any payload is read without failing: only its first 64 KiB are looked at, invalid UTF-8 is
/// replaced, and lines that are not frames are skipped; a payload without frames gives a
/// signature of the signal alone.
///
/// ```swift
/// let signature = CrashSignature(meta: event.meta, payload: event.payload)
/// signature.title    // "SIGILL in crashProbeIndexesPastTheEnd(…)"
/// signature.digest   // "5f1c…" (64 hexadecimal digits)
/// ```
public struct CrashSignature: Sendable, Hashable {
    /// The group's key: the SHA-256 of the signal and the frames, as 64 lowercase hexadecimal digits.
    public var digest: String
    /// The signal's name (`SIGILL`), or `unknown`.
    public var signal: String
    /// The frames the digest covers, each `<image> <function>`, top first (none for a payload
    /// without frames).
    public var frames: [String]
    /// A line for people: `SIGILL in crashProbeIndexesPastTheEnd(…)`, or the signal alone.
    public var title: String
    /// The top frame the digest covers, as its function with the module (or the image's name for
    /// a frame without a function); `nil` for a payload without frames.
    public var culprit: String?

    /// How many frames name a group.
    static let frameCount = 3
    /// How much of a payload is read.
    static let maximumScannedBytes = 64 * 1024
    /// The longest signal name kept.
    static let maximumSignalLength = 32

    /// Computes the signature of an `appCrash` record.
    /// - Parameters:
    ///   - meta: the record's meta object (its `signal` is read).
    ///   - payload: the stack as text, or `nil`.
    public init(meta: JSONValue, payload: [UInt8]?) {
        var known: [CrashFrame] = []
        var app: [CrashFrame] = []
        var heading: ArraySlice<UInt8>?
        var rest = (payload ?? []).prefix(Self.maximumScannedBytes)
        while app.count < Self.frameCount, !rest.isEmpty {
            let end = rest.firstIndex { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") } ?? rest.endIndex
            let line = rest[..<end]
            rest = rest[end...].dropFirst()
            if heading == nil { heading = line }
            guard let frame = CrashFrame(line: line), !frame.isUnknown else { continue }
            if known.count < Self.frameCount { known.append(frame) }
            if !SystemImages.contains(frame.image) { app.append(frame) }
        }
        let chosen = app.isEmpty ? known : app
        let signal = Self.signal(meta: meta, heading: heading.map { String(decoding: $0.prefix(64), as: UTF8.self) })
        let keys = chosen.map { "\($0.image) \($0.function)" }
        let digested = SHA256.hash(data: Array(([signal] + keys).joined(separator: "\n").utf8))
        digest = digested.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
        self.signal = signal
        frames = keys
        culprit = chosen.first?.function
        title = chosen.first.map { "\(signal) in \($0.function == $0.image ? $0.image : Self.shortName($0.function))" } ?? signal
    }

    /// The meta's `signal`, else the name after `Crashed:` in the stack's heading, else `unknown`.
    static func signal(meta: JSONValue, heading: String?) -> String {
        let fromHeading = heading.flatMap { line in
            line.hasPrefix("Crashed: ") ? line.dropFirst("Crashed: ".count).split(separator: " ").first.map(String.init) : nil
        }
        let name = (meta["signal"]?.stringValue ?? fromHeading ?? "").prefix(Self.maximumSignalLength)
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !name.isEmpty ? String(name) : "unknown"
    }

    /// A function's bare name for a title: without its module or type, its return type, or what
    /// encloses it (`closure #1 in`, `specialization of`), its arguments shortened to `(…)`.
    /// `app.crashProbe(Swift.Array<Swift.Int>) -> Swift.Int` → `crashProbe(…)`. Read as bytes:
    /// the brackets and separators are ASCII.
    static func shortName(_ function: String) -> String {
        let bytes = Array(function.utf8)
        var name = bytes[...]
        if let enclosing = [" in ", " of "].compactMap({ topLevelRange(of: $0, in: name, last: true) }).max(by: { $0.lowerBound < $1.lowerBound }) {
            name = name[enclosing.upperBound...]
        }
        if let arrow = topLevelRange(of: " -> ", in: name, last: false) { name = name[..<arrow.lowerBound] }
        if let colon = topLevelRange(of: " : ", in: name, last: false) { name = name[..<colon.lowerBound] }
        var arguments = ""
        if let open = topLevelRange(of: "(", in: name, last: false) {
            arguments = name[open.upperBound...].first == UInt8(ascii: ")") ? "()" : "(…)"
            name = name[..<open.lowerBound]
        }
        if let dot = topLevelRange(of: ".", in: name, last: true) { name = name[dot.upperBound...] }
        return name.isEmpty ? function : String(decoding: name, as: UTF8.self) + arguments
    }

    /// The first or last occurrence of `target` in `text` outside brackets (`()`, `<>`, `[]`, `{}`;
    /// the `>` of `->` closes nothing).
    private static func topLevelRange(of target: String, in text: ArraySlice<UInt8>, last: Bool) -> Range<Int>? {
        let target = Array(target.utf8)
        var depth = 0
        var found: Range<Int>?
        var previous = UInt8(ascii: " ")
        for index in text.indices {
            if depth == 0, text[index...].starts(with: target) {
                found = index..<index + target.count
                if !last { return found }
            }
            switch text[index] {
            case UInt8(ascii: "("), UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            case UInt8(ascii: ">") where previous != UInt8(ascii: "-"): depth = max(0, depth - 1)
            default: break
            }
            previous = text[index]
        }
        return found
    }
}
