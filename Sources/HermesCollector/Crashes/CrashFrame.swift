/// One frame line of a crash stack, reduced to what stays the same from one run to the next: the
/// image's name and the function, without its address or offset.
///
/// Reads the SDK's lines (`3   hermes-crash-probe  0x55839a4ed600  module.function(…) -> Int + 48`)
/// and Apple-style ones (`0   UIKitCore   0x1a2b3c4d -[UIView layoutSubviews] + 36 (File.swift:12)`):
/// a frame number, the image's name, a hexadecimal address, then the function. A function that is
/// only `<image> + 0x<offset>` or an address reduces to the image's name; `???` is a frame in no
/// image. Lines are read as bytes (the separators are ASCII); names are decoded, invalid UTF-8
/// replaced.
package struct CrashFrame: Sendable, Hashable {
    /// The image's name (`libswiftCore.so`, `UIKitCore`, `hermes-crash-probe`), or `???`.
    package var image: String
    /// The function without address or offset, or the image's name when the function is unknown.
    package var function: String

    /// The longest image or function name kept, in bytes; longer ones are cut (a garbage line
    /// stays small).
    static let maximumNameLength = 512

    /// The name of a frame in no image.
    static let unknownImage = "???"

    /// Reads a frame line, or returns `nil` for a line that is not one (a heading, a note).
    package init?(line: ArraySlice<UInt8>) {
        let words = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        guard words.count >= 2, words[0].allSatisfy(Self.isDigit),
            let address = words.indices.dropFirst().first(where: { Self.isAddress(words[$0]) }), address > 1
        else { return nil }
        let image = Self.text(Self.joined(words[1..<address]))
        let function = Self.stripOffset(Self.joined(words[(address + 1)...]))
        self.image = image
        self.function = function.isEmpty || Self.isAddress(function[...]) ? image : Self.text(function)
    }

    /// Whether the frame is in no known image (`???`).
    var isUnknown: Bool { image == Self.unknownImage }

    /// `function + 48`, `image + 0x2724a` and `function + 36 (File.swift:12)` without their
    /// offset and source location.
    static func stripOffset(_ function: [UInt8]) -> [UInt8] {
        let plus = Array(" + ".utf8)
        guard
            let start = stride(from: function.count - plus.count, through: 0, by: -1).first(where: {
                function[$0..<$0 + plus.count].elementsEqual(plus)
            })
        else { return function }
        let tail = function[(start + plus.count)...]
        let offset = tail.prefix { $0 != UInt8(ascii: " ") }
        let rest = tail.dropFirst(offset.count)
        let isOffset = offset.allSatisfy(isDigit) || isAddress(offset)
        let isLocation = rest.starts(with: Array(" (".utf8)) && rest.last == UInt8(ascii: ")")
        guard !offset.isEmpty, isOffset, rest.isEmpty || isLocation else { return function }
        return Array(function[..<start])
    }

    /// Whether `word` reads `0x` and hexadecimal digits.
    static func isAddress(_ word: ArraySlice<UInt8>) -> Bool {
        word.count > 2 && word.starts(with: Array("0x".utf8)) && word.dropFirst(2).allSatisfy { isDigit($0) || (0x61...0x66).contains($0 | 0x20) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Words joined by one space.
    private static func joined(_ words: ArraySlice<ArraySlice<UInt8>>) -> [UInt8] {
        Array(words.joined(separator: [UInt8(ascii: " ")]))
    }

    /// A name as text, cut to ``maximumNameLength`` bytes.
    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(maximumNameLength), as: UTF8.self)
    }
}
