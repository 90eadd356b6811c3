/// A block on the wire: gzip, then the cipher. Shared by v1 and v2.
enum SealedBlock {
    /// Deflate cannot expand more than 1032:1, so a block may claim no more output than that.
    static let maximumInflationRatio = 1032

    static func seal(_ plaintext: [UInt8], cipher: any PacketCipher, header: [UInt8], level: Int32) throws(HermesWireError) -> [UInt8] {
        try cipher.seal(Gzip.compress(plaintext, level: level), authenticating: header)
    }

    static func open(_ sealed: [UInt8], cipher: any PacketCipher, header: [UInt8], limit: Int) throws(HermesWireError) -> [UInt8] {
        let compressed = try cipher.open(sealed, authenticating: header)
        let justified = compressed.count.multipliedReportingOverflow(by: maximumInflationRatio)
        let bound = justified.overflow ? limit : min(limit, justified.partialValue)
        return try Gzip.decompress(compressed, limit: bound)
    }
}
