import Foundation

/// One frame line of a crash stack, reduced to what stays the same from one run to the next: the
/// image's name and the function, without its address or offset.
///
/// Reads the SDK's lines (`3   hermes-crash-probe  0x55839a4ed600  module.function(…) -> Int + 48`)
/// and Apple-style ones (`0   UIKitCore   0x1a2b3c4d -[UIView layoutSubviews] + 36 (File.swift:12)`):
/// a frame number, the image's name, a hexadecimal address, then the function. A function that is
/// only `<image> + 0x<offset>` or an address reduces to the image's name; `???` is a frame in no
/// image.
package struct CrashFrame: Sendable, Hashable {
    /// The image's name (`libswiftCore.so`, `UIKitCore`, `hermes-crash-probe`), or `???`.
    package var image: String
    /// The function without address or offset, or the image's name when the function is unknown.
    package var function: String

    /// The longest image or function name kept; longer ones are cut (a garbage line stays small).
    static let maximumNameLength = 512

    /// The name of a frame in no image.
    static let unknownImage = "???"

    /// Reads a frame line, or returns `nil` for a line that is not one (a heading, a note).
    package init?(line: Substring) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count >= 2, words[0].allSatisfy(\.isASCIIDigit),
            let address = words.indices.dropFirst().first(where: { Self.isAddress(words[$0]) }), address > 1
        else { return nil }
        let image = String(words[1..<address].joined(separator: " ").prefix(Self.maximumNameLength))
        let function = Self.stripOffset(words[(address + 1)...].joined(separator: " "))
        self.image = image
        self.function =
            function.isEmpty || Self.isAddress(Substring(function)) || function == image
            ? image : String(function.prefix(Self.maximumNameLength))
    }

    /// Whether the frame is in no known image (`???`).
    var isUnknown: Bool { image == Self.unknownImage }

    /// `function + 48`, `image + 0x2724a` and `function + 36 (File.swift:12)` without their
    /// offset and source location.
    static func stripOffset(_ function: String) -> String {
        guard let plus = function.range(of: " + ", options: .backwards) else { return function }
        let tail = function[plus.upperBound...]
        let offset = tail.prefix { !$0.isWhitespace }
        let rest = tail.dropFirst(offset.count)
        let isOffset = offset.allSatisfy(\.isASCIIDigit) || isAddress(offset)
        guard !offset.isEmpty, isOffset, rest.isEmpty || (rest.hasPrefix(" (") && rest.hasSuffix(")")) else { return function }
        return String(function[..<plus.lowerBound])
    }

    /// Whether `word` reads `0x` and hexadecimal digits.
    static func isAddress(_ word: Substring) -> Bool {
        word.count > 2 && word.hasPrefix("0x") && word.dropFirst(2).allSatisfy(\.isHexDigit)
    }
}

extension Character {
    /// An ASCII decimal digit (`isNumber` would take other scripts' digits and fractions).
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
