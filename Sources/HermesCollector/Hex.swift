/// Lowercase hexadecimal text: alert ids, secrets and signatures, console tokens and their hashes.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hexadecimal, two digits a byte.
    static func string(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `count` bytes from `generator`, as hexadecimal.
    static func random(bytes count: Int, using generator: inout some RandomNumberGenerator) -> String {
        string((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
