/// Where ``JSONValue``'s string and integer writers put their bytes: a growable byte array, or a
/// ``JSONOutputCursor`` over memory of a fixed size.
public protocol JSONOutput {
    /// Appends one byte.
    mutating func append(_ byte: UInt8)
    /// Appends `bytes`.
    mutating func append(bytes: UnsafeBufferPointer<UInt8>)
}

extension Array: JSONOutput where Element == UInt8 {
    /// Appends `bytes`.
    @inlinable
    public mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }
}

/// Writes into memory of a fixed size (a stack buffer, say): no growth and no reference count,
/// only a bounds check. What does not fit is not written, and ``overflowed`` says so: what was
/// written is then incomplete, and the writer starts again into larger memory or an array.
public struct JSONOutputCursor: JSONOutput {
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    /// Where the next byte goes.
    @usableFromInline var next: UnsafeMutablePointer<UInt8>
    @usableFromInline let end: UnsafeMutablePointer<UInt8>
    @usableFromInline var didOverflow = false

    /// - Parameter buffer: uninitialized memory; the cursor initializes it from the start.
    @inlinable
    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        // An empty buffer may have no address; nothing can be written to it.
        start = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!
        next = start
        end = start + buffer.count
    }

    /// The bytes written, from the start of the memory: all of them unless ``overflowed``.
    @inlinable public var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: next - start) }

    /// Whether something given did not fit and was left out.
    @inlinable public var overflowed: Bool { didOverflow }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        guard next < end else {
            didOverflow = true
            return
        }
        next.initialize(to: byte)
        next += 1
    }

    @inlinable
    public mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        guard end - next >= bytes.count else {
            didOverflow = true
            return
        }
        next.initialize(from: source, count: bytes.count)
        next += bytes.count
    }
}

/// A cursor points into memory its creator owns: it stays on the thread that sized the memory.
@available(*, unavailable)
extension JSONOutputCursor: Sendable {}
