internal import CZlib

/// gzip (RFC 1952) compression through the system zlib, with no other dependency.
///
/// Output is deterministic: the header carries no file name and no time, and its OS byte is
/// 255 ("unknown") on every platform, so equal input and level give equal bytes.
///
/// ```swift
/// let packed = try Gzip.compress(jsonLines)
/// let lines = try Gzip.decompress(packed, limit: 16 << 20)
/// ```
public enum Gzip: Sendable {
    /// zlib's default level: the best trade of ratio against speed for JSON lines.
    public static let defaultLevel: Int32 = 6

    /// zlib's fastest level: a third of the default's CPU on a batch of JSON lines, for about
    /// a tenth more bytes. What the SDK uploads with, to spare the device's battery.
    public static let fastLevel: Int32 = 1

    /// Compresses `input` into one gzip member.
    /// - Parameters:
    ///   - input: the bytes to compress.
    ///   - level: 0 (store) to 9 (smallest); default 6.
    /// - Returns: the gzip stream.
    /// - Throws: ``HermesWireError/Code/compressionFailed`` if zlib reports an error.
    public static func compress(_ input: [UInt8], level: Int32 = defaultLevel) throws(HermesWireError) -> [UInt8] {
        try GzipDeflater.with(level: level) { deflater throws(HermesWireError) in try deflater.compress(input) }
    }

    /// Decompresses one complete gzip member.
    /// - Parameters:
    ///   - input: a gzip stream; trailing bytes after the member are an error.
    ///   - limit: the most bytes the output may have; a larger output stops with an error
    ///     before more is allocated (a defence against decompression bombs).
    /// - Returns: the original bytes.
    /// - Throws: ``HermesWireError/Code/decompressionFailed`` for anything that is not one
    ///   complete gzip member; ``HermesWireError/Code/outputTooLarge`` past `limit`.
    public static func decompress(_ input: [UInt8], limit: Int) throws(HermesWireError) -> [UInt8] {
        var stream = z_stream()
        var status = inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw HermesWireError(.decompressionFailed, "zlib inflateInit2 failed (\(status))") }
        defer { inflateEnd(&stream) }

        var output = [UInt8](repeating: 0, count: min(limit, max(4 * input.count, 1024)))
        var produced = 0
        var consumed = 0
        while true {
            input.withUnsafeBufferPointer { inputBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.next_in = UnsafeMutablePointer(mutating: inputBuffer.baseAddress.map { $0 + consumed })
                    stream.avail_in = uInt(inputBuffer.count - consumed)
                    stream.next_out = outputBuffer.baseAddress.map { $0 + produced }
                    stream.avail_out = uInt(outputBuffer.count - produced)
                    status = inflate(&stream, Z_NO_FLUSH)
                    consumed = inputBuffer.count - Int(stream.avail_in)
                    produced = outputBuffer.count - Int(stream.avail_out)
                }
            }
            if status == Z_STREAM_END { break }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                throw HermesWireError(.decompressionFailed, "input is not valid gzip (zlib \(status))")
            }
            if produced < output.count {
                // zlib stopped with room left: it needs input that is not there.
                throw HermesWireError(.decompressionFailed, "gzip stream is truncated")
            }
            guard output.count < limit else {
                throw HermesWireError(.outputTooLarge, "decompressed data exceeds the limit of \(limit) bytes")
            }
            output.append(contentsOf: repeatElement(0, count: min(output.count, limit - output.count)))
        }
        guard consumed == input.count else {
            throw HermesWireError(.decompressionFailed, "unexpected bytes after the gzip stream")
        }
        output.removeSubrange(produced...)
        return output
    }
}
