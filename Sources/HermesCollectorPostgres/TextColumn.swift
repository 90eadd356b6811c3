package import NIOCore
package import PostgresNIO

/// A `text[]` bind kept as the bytes PostgreSQL's binary array format gives its elements (each a
/// 4-byte length, then its UTF-8), appended one element at a time: binding it copies those bytes
/// once, where postgres-nio writes an array of strings element by element (a length placeholder,
/// the string, the length, each write checked on its own).
///
/// Elements are text the collector already checked: valid UTF-8 without a NUL (a meta line's
/// NUL can only appear escaped).
package struct TextColumn: PostgresNonThrowingEncodable, Sendable {
    package static var psqlType: PostgresDataType { .textArray }
    package static var psqlFormat: PostgresFormat { .binary }

    private var elements: [UInt8] = []
    /// How many elements the column holds.
    package private(set) var count = 0

    package init() {}

    /// Makes room for `count` elements of about `bytes` bytes each.
    mutating func reserveCapacity(_ count: Int, bytesEach bytes: Int) {
        elements.reserveCapacity(count * (4 + bytes))
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(utf8: $0) }
    }

    /// Appends an element from its UTF-8 bytes.
    mutating func append(utf8 bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(utf8: $0) }
    }

    private mutating func append(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        withUnsafeBytes(of: Int32(bytes.count).bigEndian) { elements.append(contentsOf: $0) }
        elements.append(contentsOf: bytes)
        count += 1
    }

    package func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        // The header postgres-nio writes for an array: dimensions (none when empty), no NULLs,
        // the element type; then the one dimension's length and lower bound.
        buffer.writeInteger(count == 0 ? 0 : 1, as: Int32.self)
        buffer.writeInteger(0, as: Int32.self)
        buffer.writeInteger(PostgresDataType.text.rawValue)
        guard count > 0 else { return }
        buffer.writeInteger(Int32(count))
        buffer.writeInteger(1, as: Int32.self)
        buffer.writeBytes(elements)
    }
}
