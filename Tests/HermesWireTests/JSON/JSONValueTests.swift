import Foundation
import HermesWire
import Testing

struct JSONValueTests {
    @Test func literalsBuildTheExpectedValues() {
        let value: JSONValue = ["amount": 12, "ok": true, "tags": ["a", "b"], "rate": 0.5, "none": nil]
        #expect(value["amount"] == .int(12))
        #expect(value["ok"] == .bool(true))
        #expect(value["tags"] == .array([.string("a"), .string("b")]))
        #expect(value["rate"] == .double(0.5))
        #expect(value["none"] == .null)
    }

    @Test func encodingIsCompactWithSortedKeys() throws {
        let value: JSONValue = ["b": 1, "a": ["z": true, "y": nil], "c": [1.5, "x"]]
        #expect(try value.jsonString() == #"{"a":{"y":null,"z":true},"b":1,"c":[1.5,"x"]}"#)
    }

    @Test func equalValuesGiveEqualBytesWhateverTheInsertionOrder() throws {
        var first: [String: JSONValue] = [:]
        var second: [String: JSONValue] = [:]
        let keys = (0..<50).map { "key\($0)" }
        for key in keys { first[key] = .string(key) }
        for key in keys.reversed() { second[key] = .string(key) }
        #expect(try JSONValue.object(first).jsonBytes() == JSONValue.object(second).jsonBytes())
    }

    @Test(arguments: [Int64.min, -1_000_000_007, -1, 0, 7, 10, 1_763_000_000_000, .max])
    func integersAreWrittenAsStringSpellsThem(_ value: Int64) throws {
        var output: [UInt8] = []
        JSONValue.writeInteger(value, into: &output)
        #expect(String(decoding: output, as: UTF8.self) == String(value))
        #expect(try JSONValue(parsing: output) == .int(value))
    }

    /// A cursor over fixed memory writes what an array does when the memory holds it, and says
    /// so when it does not, whether the edge falls in a copied run, an escape or a quote.
    @Test(arguments: ["", "a", "main", "FeedViewController", "q\"b\\n\nt\tc\u{01}\u{1F}é/", String(repeating: "\u{7}x", count: 40), "日本語のテキスト"])
    func aCursorWritesWhatAnArrayDoesOrSaysItOverflowed(_ string: String) throws {
        var array: [UInt8] = []
        JSONValue.writeString(string, into: &array)
        JSONValue.writeInteger(-1_763_000_000_000, into: &array)
        #expect(try JSONValue(parsing: Array(array.dropLast(14))) == .string(string))

        for capacity in [array.count, array.count + 1, array.count - 1, array.count - 15, 1, 0] where capacity >= 0 {
            let (written, overflowed) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
                var cursor = JSONOutputCursor(buffer)
                JSONValue.writeString(string, into: &cursor)
                JSONValue.writeInteger(-1_763_000_000_000, into: &cursor)
                return (Array(cursor.written), cursor.overflowed)
            }
            #expect(overflowed == (capacity < array.count), "capacity \(capacity)")
            #expect(written.count <= capacity)
            if !overflowed { #expect(written == array) }
        }
    }

    /// The escapes are found eight bytes at a time: a byte that needs one, at each position of
    /// a word and of the tail, among neighbours that do not (bytes around the quote and the
    /// backslash, 0x1F and 0x20, multi-byte UTF-8).
    @Test func everyByteThatNeedsAnEscapeIsFoundWhereverItIs() throws {
        let specials: [Character] = ["\u{0}", "\u{1}", "\u{1F}", "\"", "\\", "\n", "\r", "\t"]
        let neighbours: [Character] = [" ", "!", "#", "[", "]", "\u{7F}", "é", "日", "a"]
        func reference(_ string: String) -> String {
            var escaped = "\""
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\t": escaped += "\\t"
                case _ where scalar.value < 0x20: escaped += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped + "\""
        }
        for length in [1, 7, 8, 9, 16, 23, 40] {
            for position in 0..<length {
                for special in specials + neighbours {
                    for neighbour in neighbours {
                        var characters = Array(repeating: neighbour, count: length)
                        characters[position] = special
                        let string = String(characters)
                        var output: [UInt8] = []
                        JSONValue.writeString(string, into: &output)
                        #expect(String(decoding: output, as: UTF8.self) == reference(string), "\(Array(string.utf8))")
                    }
                }
            }
        }
    }

    @Test func stringsAreEscapedAsRFC8259Requires() throws {
        let value: JSONValue = .string("q\"b\\n\nt\tc\u{01}é/")
        #expect(try value.jsonString() == #""q\"b\\n\nt\tc\u0001é/""#)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNumbersAreRejected(number: Double) {
        expectWireError(.nonFiniteNumber) { try JSONValue.double(number).jsonBytes() }
        expectWireError(.nonFiniteNumber) { try JSONValue.object(["deep": [1, .double(number)]]).jsonBytes() }
    }

    @Test func theEncoderWritesNothingDeeperThanTheParserReads() throws {
        func nested(_ levels: Int) -> JSONValue {
            (0..<levels).reduce(JSONValue.int(1)) { inner, _ in .array([inner]) }
        }
        // 63 arrays around a number: the number sits at depth 63, the deepest the parser reads.
        let deepest = try nested(63).jsonBytes()
        #expect(try JSONValue(parsing: deepest) == nested(63))
        expectWireError(.invalidJSON) { try JSONValue(parsing: Array("[".utf8) + deepest + Array("]".utf8)) }
        expectWireError(.nestingTooDeep) { try nested(64).jsonBytes() }
        expectWireError(.nestingTooDeep) { try JSONValue.object(["meta": nested(63)]).jsonBytes() }
    }

    @Test func parsingRoundTripsEncodedValues() throws {
        let value: JSONValue = [
            "int": 9_007_199_254_740_993, "negative": -3, "double": 1.25, "exp": 1e-7,
            "text": "ünïcødé \u{1F600} \"quoted\"", "list": [nil, false, [:]], "empty": [],
        ]
        #expect(try JSONValue(parsing: value.jsonBytes()) == value)
    }

    @Test func parsingTellsIntegersFromFractions() throws {
        #expect(try JSONValue(parsing: Array("12".utf8)) == .int(12))
        #expect(try JSONValue(parsing: Array("12.0".utf8)) == .double(12))
        #expect(try JSONValue(parsing: Array("1e2".utf8)) == .double(100))
        #expect(try JSONValue(parsing: Array("99999999999999999999".utf8)) == .double(1e20))
        #expect(try JSONValue(parsing: Array("-9223372036854775808".utf8)) == .int(.min))
        #expect(try JSONValue(parsing: Array("9223372036854775807".utf8)) == .int(.max))
        #expect(try JSONValue(parsing: Array("9223372036854775808".utf8)) == .double(9_223_372_036_854_775_808))
        #expect(try JSONValue(parsing: Array("-0".utf8)) == .int(0))
    }

    @Test func duplicateMembersKeepTheLastValue() throws {
        #expect(try JSONValue(parsing: Array(#"{"a":1,"b":2,"a":3}"#.utf8)) == ["a": 3, "b": 2])
    }

    @Test func parsingDecodesEscapesAndSurrogatePairs() throws {
        let parsed = try JSONValue(parsing: Array(#" "a\u00e9\ud83d\ude00\/\n" "#.utf8))
        #expect(parsed == .string("aé\u{1F600}/\n"))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "tru", "\"unterminated", "{\"a\" 1}",
        "[1] 2", "\"\u{01}\"", "\"\\ud800\"", "\"\\x\"", "1e999", "{1:2}", "nul",
    ])
    func malformedJSONIsRejected(text: String) {
        expectWireError(.invalidJSON) { try JSONValue(parsing: Array(text.utf8)) }
    }

    @Test func invalidUTF8IsRejected() {
        expectWireError(.invalidJSON) { try JSONValue(parsing: [0x22, 0xC3, 0x28, 0x22]) }
    }

    /// The parser scans strings eight bytes at a time: whatever ends, escapes or spoils a
    /// string is found at each position of a word and of the tail, in values and in member
    /// names.
    @Test func stringsAreReadAlikeWhereverTheirSpecialBytesAre() throws {
        for length in [1, 7, 8, 9, 16, 23, 40] {
            for position in 0..<length {
                for filler in ["a", "é"] {
                    var plain = Array(repeating: Character(filler), count: length)
                    for special in ["\"", "\\", "\n", "\u{1}", "日"] as [Character] {
                        plain[position] = special
                        let string = String(plain)
                        var encoded: [UInt8] = []
                        JSONValue.writeString(string, into: &encoded)
                        #expect(try JSONValue(parsing: encoded) == .string(string))
                        #expect(try JSONValue(parsing: Array("{".utf8) + encoded + Array(":1}".utf8)) == .object([string: 1]))
                    }
                    let bytes = Array(String(repeating: filler, count: length).utf8)
                    for (spoiler, code) in [(UInt8(0x01), HermesWireError.Code.invalidJSON), (0xFF, .invalidJSON)] {
                        var spoiled = bytes
                        spoiled[min(position, spoiled.count - 1)] = spoiler
                        expectWireError(code) { try JSONValue(parsing: [0x22] + spoiled + [0x22]) }
                        expectWireError(code) { try JSONValue(parsing: Array("{\"".utf8) + spoiled + Array("\":1}".utf8)) }
                    }
                }
            }
        }
    }

    @Test func nestingIsBoundedSoHostileInputCannotExhaustTheStack() throws {
        let deep = String(repeating: "[", count: 100_000)
        expectWireError(.invalidJSON) { try JSONValue(parsing: Array(deep.utf8)) }
        let allowed = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(throws: Never.self) { try JSONValue(parsing: Array(allowed.utf8)) }
    }

    @Test func codableRoundTripsThroughFoundation() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", true, nil], "b": ["c": "d"]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }
}
