/// A strict RFC 8259 parser producing ``JSONValue``.
///
/// Rejects invalid UTF-8, trailing bytes, and nesting deeper than ``maximumDepth``, so hostile
/// input can neither crash the caller nor exhaust its stack. Numbers without a fraction or
/// exponent that fit `Int64` become ``JSONValue/int(_:)``; all others ``JSONValue/double(_:)``.
struct JSONParser {
    static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one JSON value.
    /// - Parameter input: the UTF-8 bytes.
    static func parse(_ input: some Collection<UInt8>) throws(HermesWireError) -> JSONValue {
        try read(input) { parser throws(HermesWireError) in try parser.parseValue(depth: 0) }
    }

    /// Parses one JSON value, checked in full, and builds only the members `names` lists of the
    /// object it should be: no strings, arrays or dictionaries are made for the others.
    /// - Returns: the members' values in the order of `names` (`nil` for one the object lacks,
    ///   the last for one it repeats), or `nil` when the value is not an object.
    static func parseMembers(_ input: some Collection<UInt8>, named names: JSONMemberNames) throws(HermesWireError) -> [JSONValue?]? {
        try read(input) { parser throws(HermesWireError) in
            guard parser.startsObject else {
                _ = try parser.parseValue(depth: 0, keep: false)
                return nil
            }
            var values = [JSONValue?](repeating: nil, count: names.names.count)
            // A name is matched where it lies: no string is made for a member left out.
            try parser.readMembers(depth: 0, name: { parser throws(HermesWireError) in try parser.parseMemberName(in: names) }) {
                slot, parser throws(HermesWireError) in
                let value = try parser.parseValue(depth: 1, keep: slot != nil)
                if let slot { values[slot] = value }
            }
            return values
        }
    }

    /// Reads one JSON value from `input` with `body`, which reads it through ``parseValue(depth:)``,
    /// ``readMembers(depth:_:)`` and ``readElements(depth:_:)``; only whitespace may follow it.
    static func read<T>(_ input: some Collection<UInt8>, _ body: (inout JSONParser) throws(HermesWireError) -> T) throws(HermesWireError) -> T {
        let result: Result<T, HermesWireError>? = input.withContiguousStorageIfAvailable { buffer in
            Result { () throws(HermesWireError) -> T in try readBuffer(buffer, body) }
        }
        if let result { return try result.get() }
        let copy = Array(input)
        return try copy.withUnsafeBufferPointer { buffer throws(HermesWireError) in try readBuffer(buffer, body) }
    }

    private static func readBuffer<T>(_ buffer: UnsafeBufferPointer<UInt8>, _ body: (inout JSONParser) throws(HermesWireError) -> T)
        throws(HermesWireError) -> T
    {
        var parser = JSONParser(bytes: buffer)
        parser.skipWhitespace()
        let value = try body(&parser)
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.failure("unexpected bytes after the JSON value") }
        return value
    }

    private func failure(_ reason: String) -> HermesWireError {
        HermesWireError(.invalidJSON, "\(reason) at byte \(index)")
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Whether the value here is an object.
    var startsObject: Bool { current == UInt8(ascii: "{") }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            index += 1
        }
    }

    private mutating func expect(_ literal: StaticString) throws(HermesWireError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw failure("unexpected end of input") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw failure("invalid literal")
        }
        index += count
    }

    /// Parses a value; with `keep` false it only checks it and returns `.null` for strings,
    /// arrays and objects.
    mutating func parseValue(depth: Int, keep: Bool = true) throws(HermesWireError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth)") }
        guard let byte = current else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth, keep: keep)
        case UInt8(ascii: "["): return try parseArray(depth: depth, keep: keep)
        case UInt8(ascii: "\""):
            let string = try parseString(keep: keep)
            return keep ? .string(string) : .null
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected byte")
        }
    }

    private mutating func parseObject(depth: Int, keep: Bool) throws(HermesWireError) -> JSONValue {
        // Members are gathered first and hashed once, into a dictionary of the right size.
        var members: [(String, JSONValue)] = []
        try readMembers(depth: depth, keepNames: keep) { key, parser throws(HermesWireError) in
            let value = try parser.parseValue(depth: depth + 1, keep: keep)
            if keep { members.append((key, value)) }
        }
        return keep ? .object(Dictionary(members) { _, later in later }) : .null
    }

    private mutating func parseArray(depth: Int, keep: Bool) throws(HermesWireError) -> JSONValue {
        var elements: [JSONValue] = []
        try readElements(depth: depth) { parser throws(HermesWireError) in
            let element = try parser.parseValue(depth: depth + 1, keep: keep)
            if keep { elements.append(element) }
        }
        return keep ? .array(elements) : .null
    }

    /// Reads the object that starts here member by member: `member` is given each member's name
    /// with the parser at its value, and must read the value (at `depth + 1`).
    /// - Parameter keepNames: `false` checks the names without making them (`member` gets "" for
    ///   an ASCII name without escapes).
    @inline(__always)
    mutating func readMembers(
        depth: Int, keepNames: Bool = true, _ member: (String, inout JSONParser) throws(HermesWireError) -> Void
    ) throws(HermesWireError) {
        try readMembers(depth: depth, name: { parser throws(HermesWireError) in try parser.parseString(keep: keepNames) }, member)
    }

    /// Reads the object that starts here member by member, each member's name read by `name`
    /// (with the parser at its opening quote) and given to `member` with the parser at its value.
    @inline(__always)
    private mutating func readMembers<Name>(
        depth: Int, name readName: (inout JSONParser) throws(HermesWireError) -> Name,
        _ member: (Name, inout JSONParser) throws(HermesWireError) -> Void
    ) throws(HermesWireError) {
        guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth)") }
        guard current == UInt8(ascii: "{") else { throw failure("expected an object") }
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let key = try readName(&self)
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            try member(key, &self)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    /// Reads the array that starts here element by element: `element` is given the parser at
    /// each element, and must read it (at `depth + 1`).
    @inline(__always)
    mutating func readElements(depth: Int, _ element: (inout JSONParser) throws(HermesWireError) -> Void) throws(HermesWireError) {
        guard depth < Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth)") }
        guard current == UInt8(ascii: "[") else { throw failure("expected an array") }
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            try element(&self)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    /// Parses a member name and returns the place in `names` of the one it equals, or `nil`. An
    /// ASCII name without escapes is compared where it lies; any other is made a string first.
    private mutating func parseMemberName(in names: JSONMemberNames) throws(HermesWireError) -> Int? {
        let start = index + 1
        var end = start
        while plainWord(at: end) == .ascii { end += 8 }
        while end < bytes.count, case let byte = bytes[end], byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20, byte < 0x80 {
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return names.index(equalTo: try parseString()) }
        index = end + 1
        return names.index(matching: UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    /// Parses a string; with `keep` false an ASCII string without escapes is only checked and
    /// "" returned.
    private mutating func parseString(keep: Bool = true) throws(HermesWireError) -> String {
        index += 1
        let start = index
        var isASCII = true
        // The common case, a string without escapes, becomes a `String` straight from the input.
        while let word = plainWord(at: index) {
            if word == .utf8 { isASCII = false }
            index += 8
        }
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if isASCII { return keep ? String(decoding: run, as: UTF8.self) : "" }
                guard let string = String(validating: run, as: UTF8.self) else { throw failure("string is not valid UTF-8") }
                return string
            case UInt8(ascii: "\\"):
                return try parseEscapedString(from: start)
            case 0x00..<0x20:
                throw failure("control character in string")
            case 0x80...:
                isASCII = false
                index += 1
            default:
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    /// Eight bytes inside a string, none of which ends it, escapes or is refused: ASCII only, or
    /// with bytes of multi-byte UTF-8 characters.
    private enum PlainWord { case ascii, utf8 }

    /// The eight bytes at `offset`, when none of them is a quote, a backslash or a control
    /// character (`nil` too when fewer than eight are left): strings are scanned a word at a
    /// time up to the word that holds their end.
    private func plainWord(at offset: Int) -> PlainWord? {
        guard bytes.count - offset >= 8, let base = bytes.baseAddress else { return nil }
        let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
        guard !JSONValue.mayNeedEscape(word) else { return nil }
        return word & 0x8080_8080_8080_8080 == 0 ? .ascii : .utf8
    }

    /// The rest of a string that holds an escape, from its first byte at `start`.
    private mutating func parseEscapedString(from start: Int) throws(HermesWireError) -> String {
        var scalars: [UInt8] = []
        var runStart = start
        while true {
            guard let byte = current else { throw failure("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                scalars.append(contentsOf: bytes[runStart..<index])
                index += 1
                guard let string = String(validating: scalars, as: UTF8.self) else {
                    throw failure("string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                scalars.append(contentsOf: bytes[runStart..<index])
                index += 1
                try parseEscape(into: &scalars)
                runStart = index
            case 0x00..<0x20:
                throw failure("control character in string")
            default:
                index += 1
            }
        }
    }

    private mutating func parseEscape(into output: inout [UInt8]) throws(HermesWireError) {
        guard let byte = current else { throw failure("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard current == UInt8(ascii: "\\") else { throw failure("unpaired surrogate") }
                index += 1
                guard current == UInt8(ascii: "u") else { throw failure("unpaired surrogate") }
                index += 1
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid unicode escape") }
            output.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw failure("invalid escape")
        }
    }

    private mutating func parseHex4() throws(HermesWireError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("truncated unicode escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid unicode escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(HermesWireError) -> JSONValue {
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard try skipDigits(allowLeadingZero: false) else { throw failure("invalid number") }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard try skipDigits(allowLeadingZero: true) else { throw failure("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard try skipDigits(allowLeadingZero: true) else { throw failure("invalid number") }
        }
        if isInteger, let value = integer(bytes[start..<index]) { return .int(value) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw failure("number out of range") }
        return .double(value)
    }

    /// The value of an integer's digits (after an optional `-`), or `nil` past `Int64`'s range.
    private func integer(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        let isNegative = digits.first == UInt8(ascii: "-")
        var value: Int64 = 0
        for digit in digits.dropFirst(isNegative ? 1 : 0) {
            let (shifted, overflowedShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowed) =
                isNegative
                ? shifted.subtractingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
                : shifted.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflowedShift, !overflowed else { return nil }
            value = next
        }
        return value
    }

    /// Skips a run of digits; returns whether there was at least one.
    private mutating func skipDigits(allowLeadingZero: Bool) throws(HermesWireError) -> Bool {
        let start = index
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        if !allowLeadingZero, index - start > 1, bytes[start] == UInt8(ascii: "0") {
            throw failure("leading zero in number")
        }
        return index > start
    }
}

extension JSONValue {
    /// Parses JSON text strictly (RFC 8259, UTF-8, at most 64 levels deep).
    /// - Parameter bytes: the UTF-8 bytes of one JSON value, optionally surrounded by whitespace.
    /// - Throws: ``HermesWireError/Code/invalidJSON`` with the byte offset of the problem.
    public init(parsing bytes: some Collection<UInt8>) throws(HermesWireError) {
        self = try JSONParser.parse(bytes)
    }
}
