/// Where ``JSONValue``'s string and integer writers put their bytes: a growable byte array, or a
/// ``JSONOutputCursor`` over memory whose size was counted beforehand
/// (``JSONValue/quotedSize(of:)``, ``JSONValue/decimalSize(of:)``).
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

/// Writes into memory that was sized for everything it is given: no capacity check, no
/// growth, no reference count. Writing past the end is the caller's error (checked in debug
/// builds).
public struct JSONOutputCursor: JSONOutput {
    /// Where the next byte goes.
    @usableFromInline var next: UnsafeMutablePointer<UInt8>
    @usableFromInline let end: UnsafeMutablePointer<UInt8>

    /// Where the next byte goes.
    @inlinable public var position: UnsafeMutablePointer<UInt8> { next }

    /// - Parameter buffer: uninitialized memory; the cursor initializes it from the start.
    @inlinable
    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        // An empty buffer may have no address; nothing can be written to it.
        let start = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!
        next = start
        end = start + buffer.count
    }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        assert(next < end, "JSONOutputCursor: written past the counted size")
        next.initialize(to: byte)
        next += 1
    }

    @inlinable
    public mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        assert(end - next >= bytes.count, "JSONOutputCursor: written past the counted size")
        next.initialize(from: source, count: bytes.count)
        next += bytes.count
    }
}

/// A cursor points into memory its creator owns: it stays on the thread that sized the memory.
@available(*, unavailable)
extension JSONOutputCursor: Sendable {}
