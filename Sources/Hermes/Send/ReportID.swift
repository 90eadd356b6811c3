/// `REPORT_ID`s: random (version 4) UUIDs from the system's secure generator, formatted
/// without Foundation so `send` stays cheap.
enum ReportID {
    private static let hex = Array("0123456789ABCDEF".utf8)

    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var words = (generator.next(), generator.next())
        withUnsafeMutableBytes(of: &words) { bytes in
            bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
            bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        }
        return withUnsafeBytes(of: &words) { bytes in
            String(unsafeUninitializedCapacity: 36) { buffer in
                var index = 0
                for (position, byte) in bytes.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        buffer[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    buffer[index] = hex[Int(byte >> 4)]
                    buffer[index + 1] = hex[Int(byte & 0x0F)]
                    index += 2
                }
                return index
            }
        }
    }
}
