extension JSONValue {
    /// The compact, deterministic JSON encoding of this value.
    ///
    /// No whitespace; object keys sorted (byte order for ASCII keys); strings escaped as RFC 8259
    /// requires (quote, backslash, control characters) and otherwise written as UTF-8.
    /// - Returns: the UTF-8 bytes of the JSON text.
    /// - Throws: ``HermesWireError/Code/nonFiniteNumber`` for NaN or an infinity anywhere inside;
    ///   ``HermesWireError/Code/nestingTooDeep`` for a value the parser could not read back.
    public func jsonBytes() throws(HermesWireError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        try write(into: &output)
        return output
    }

    /// The compact, deterministic JSON encoding as a `String`; see ``jsonBytes()``.
    public func jsonString() throws(HermesWireError) -> String {
        String(decoding: try jsonBytes(), as: UTF8.self)
    }

    /// Appends the compact, deterministic encoding of this value to `output`.
    ///
    /// Nothing is written that ``init(parsing:)`` would refuse: a value nested deeper than the
    /// parser reads (64 levels, counting `depth` levels around this value) is an error.
    /// - Parameter depth: how many arrays or objects enclose this value in the whole document.
    /// - Throws: ``HermesWireError/Code/nonFiniteNumber`` for NaN or an infinity anywhere inside;
    ///   ``HermesWireError/Code/nestingTooDeep`` past the parser's depth.
    public func write(into output: inout [UInt8], depth: Int = 0) throws(HermesWireError) {
        guard depth < JSONParser.maximumDepth else {
            throw HermesWireError(.nestingTooDeep, "JSON is read at most \(JSONParser.maximumDepth) levels deep; flatten the value")
        }
        switch self {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let value):
            output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value):
            Self.writeInteger(value, into: &output)
        case .double(let value):
            guard value.isFinite else {
                throw HermesWireError(.nonFiniteNumber, "JSON cannot represent NaN or infinity; send a finite number or a string")
            }
            output.append(contentsOf: value.description.utf8)
        case .string(let value):
            Self.writeString(value, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try element.write(into: &output, depth: depth + 1)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            try Self.writeObject(members, into: &output, depth: depth)
        }
    }

    /// Writes an object's members with keys in Swift's string order: UTF-8 byte order for ASCII
    /// keys, and a fixed order (of canonically equivalent forms) for any other.
    static func writeObject(_ members: [String: JSONValue], into output: inout [UInt8], depth: Int) throws(HermesWireError) {
        output.append(UInt8(ascii: "{"))
        for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            writeString(member.key, into: &output)
            output.append(UInt8(ascii: ":"))
            try member.value.write(into: &output, depth: depth + 1)
        }
        output.append(UInt8(ascii: "}"))
    }

    /// Appends `string` as a JSON string (quoted and escaped) to `output`; runs that need no
    /// escaping are copied at once.
    @inlinable
    public static func writeString(_ string: String, into output: inout some JSONOutput) {
        output.append(UInt8(ascii: "\""))
        // A native string lends its bytes without a copy of the value (and its reference count).
        if string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, into: &output) }) == nil {
            var string = string
            string.withUTF8 { writeEscaped($0, into: &output) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 `bytes` escaped for a JSON string; runs that need no escaping are copied at once.
    @inlinable
    static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout some JSONOutput) {
        var runStart = 0
        var index = firstEscape(in: bytes, from: 0)
        while index < bytes.count {
            output.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            writeEscape(bytes[index], into: &output)
            runStart = index + 1
            index = firstEscape(in: bytes, from: runStart)
        }
        output.append(bytes: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// The index of the first byte at or after `start` that a JSON string must escape (a quote,
    /// a backslash or a control character), or `bytes.count`. Eight bytes are tested at once:
    /// the bytes of most strings need no escape.
    @inlinable
    static func firstEscape(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            while bytes.count - index >= 8, !mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }

    /// Whether one of the eight bytes of `word` is below 0x20, a quote or a backslash: the
    /// word-wide tests for a byte below a value and for a zero byte (of the word made by
    /// xor-ing each byte with the quote, then the backslash), each exact for the word as a whole.
    @inlinable
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let control = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (control | quote | backslash) & highs != 0
    }

    /// Writes `value` in decimal, as `String(value)` spells it, without making the string.
    @inlinable
    public static func writeInteger(_ value: Int64, into output: inout some JSONOutput) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(bytes: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Writes the escape sequence of a quote, a backslash or a control character.
    @inlinable
    static func writeEscape(_ byte: UInt8, into output: inout some JSONOutput) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        default:
            output.append(UInt8(ascii: "u"))
            output.append(UInt8(ascii: "0"))
            output.append(UInt8(ascii: "0"))
            output.append(hexDigit(byte >> 4))
            output.append(hexDigit(byte & 0x0F))
        }
    }

    @inlinable
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
