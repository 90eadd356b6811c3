internal import CZlib

/// A zlib deflate stream kept for the next ``Gzip/compress(_:level:)`` at the same level:
/// `deflateReset` instead of `deflateInit2` and `deflateEnd`, which allocate and clear about
/// 256 KiB each time (a third of the cost of compressing a 100-record batch at level 1). The
/// output is byte for byte what a fresh stream gives.
final class GzipDeflater: @unchecked Sendable {
    // @unchecked: used by one compression at a time; deflaters pass between threads only
    // through the `idle` pool's lock.

    /// zlib keeps a pointer back to its stream, so the stream lives at a fixed address.
    private let stream: UnsafeMutablePointer<z_stream>
    /// The gzip header: no name, no time, OS 255, so equal input gives equal bytes.
    private let header = UnsafeMutablePointer<gz_header>.allocate(capacity: 1)
    let level: Int32

    /// Deflaters waiting for their next use, by level (a few per level).
    private static let idle = Locked<[Int32: [GzipDeflater]]>([:])
    private static let idlePerLevel = 2

    private init(stream: UnsafeMutablePointer<z_stream>, level: Int32) {
        self.stream = stream
        self.level = level
        header.initialize(to: gz_header())
        header.pointee.os = 255
    }

    /// A new stream at `level`, or `nil` when zlib cannot make one.
    private static func make(level: Int32) -> GzipDeflater? {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard deflateInit2_(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            stream.deallocate()
            return nil
        }
        return GzipDeflater(stream: stream, level: level)
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
        header.deallocate()
    }

    /// Runs `body` with a deflater at `level`, kept for the next call afterwards.
    static func with<T>(level: Int32, _ body: (GzipDeflater) throws(HermesWireError) -> T) throws(HermesWireError) -> T {
        guard let deflater = idle.withLock({ $0[level]?.popLast() }) ?? make(level: level) else {
            throw HermesWireError(.compressionFailed, "zlib deflateInit2 failed at level \(level)")
        }
        let result = try body(deflater)
        idle.withLock { idle in
            if idle[level, default: []].count < idlePerLevel { idle[level, default: []].append(deflater) }
        }
        return result
    }

    /// Compresses `input` into one gzip member.
    func compress(_ input: [UInt8]) throws(HermesWireError) -> [UInt8] {
        var status = deflateReset(stream)
        if status == Z_OK { status = deflateSetHeader(stream, header) }
        guard status == Z_OK else { throw HermesWireError(.compressionFailed, "zlib deflateReset failed (\(status))") }
        let capacity = Int(deflateBound(stream, uLong(input.count)))
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { outputBuffer, produced in
            input.withUnsafeBufferPointer { inputBuffer in
                stream.pointee.next_in = UnsafeMutablePointer(mutating: inputBuffer.baseAddress)
                stream.pointee.avail_in = uInt(inputBuffer.count)
                stream.pointee.next_out = outputBuffer.baseAddress
                stream.pointee.avail_out = uInt(outputBuffer.count)
                status = deflate(stream, Z_FINISH)
                produced = outputBuffer.count - Int(stream.pointee.avail_out)
            }
        }
        guard status == Z_STREAM_END else { throw HermesWireError(.compressionFailed, "zlib deflate failed (\(status))") }
        return output
    }
}
