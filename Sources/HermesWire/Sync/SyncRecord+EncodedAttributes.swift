extension SyncRecord {
    /// `"revision":`, the member ``write(_:revision:into:)`` inserts.
    private static let revisionMember = Array(#""revision":"#.utf8)
    /// `revision`, as the top-level keys are compared with it.
    private static let revisionKeyBytes = Array(revisionKey.utf8)

    /// Appends a record's attributes object from a store's JSON object text (compact, keys
    /// sorted), with `"revision":` inserted where its key sorts: the bytes ``JSONValue`` would
    /// write for the parsed attributes plus the revision, found by scanning the top-level keys
    /// only, so no attribute value is parsed or encoded.
    /// - Returns: `false`, with nothing appended, when the text is not such an object or already
    ///   holds a `revision` key (the caller then writes the parsed values).
    static func write(_ text: [UInt8], revision: Int64, into output: inout [UInt8]) -> Bool {
        guard text.count >= 2, text.first == UInt8(ascii: "{"), text.last == UInt8(ascii: "}") else { return false }
        if text.count == 2 {
            output.append(UInt8(ascii: "{"))
            writeRevision(revision, into: &output)
            output.append(UInt8(ascii: "}"))
            return true
        }
        var index = 1
        while index < text.count - 1 {
            guard text[index] == UInt8(ascii: "\""), let keyEnd = stringEnd(in: text, from: index) else { return false }
            let key = text[(index + 1)..<keyEnd]
            if key.elementsEqual(revisionKeyBytes) { return false }
            if revisionKeyBytes.lexicographicallyPrecedes(key) {
                output.append(contentsOf: text[..<index])
                writeRevision(revision, into: &output)
                output.append(UInt8(ascii: ","))
                output.append(contentsOf: text[index...])
                return true
            }
            guard let next = valueEnd(in: text, from: keyEnd + 1) else { return false }
            index = next + 1
        }
        output.append(contentsOf: text[..<(text.count - 1)])
        output.append(UInt8(ascii: ","))
        writeRevision(revision, into: &output)
        output.append(UInt8(ascii: "}"))
        return true
    }

    /// Appends `"revision":<revision>`.
    private static func writeRevision(_ revision: Int64, into output: inout [UInt8]) {
        output.append(contentsOf: revisionMember)
        JSONValue.writeInteger(revision, into: &output)
    }

    /// The index of the quote closing the string opened at `start`.
    private static func stringEnd(in text: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return nil
    }

    /// The index of the `,` or `}` ending the top-level member whose `:` is at `colon`.
    private static func valueEnd(in text: [UInt8], from colon: Int) -> Int? {
        guard colon < text.count, text[colon] == UInt8(ascii: ":") else { return nil }
        var depth = 0
        var index = colon + 1
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(in: text, from: index) else { return nil }
                index = end
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}") where depth == 0: return index
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            case UInt8(ascii: ",") where depth == 0: return index
            default: break
            }
            index += 1
        }
        return nil
    }
}
