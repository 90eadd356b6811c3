package import NIOCore
package import PostgresNIO

/// An array bind kept as the bytes PostgreSQL's binary array format gives its elements (each a
/// 4-byte length, then the element), appended one element at a time: binding it copies those
/// bytes once, where postgres-nio writes an array element by element (a length placeholder, the
/// element, the length, each write checked on its own: about 110 ns an element).
///
/// Text elements are text the collector already checked: valid UTF-8 without a NUL (a meta
/// line's NUL can only appear escaped).
package struct ArrayColumn<Element: ArrayColumnElement>: PostgresNonThrowingEncodable, Sendable {
    package static var psqlType: PostgresDataType { Element.arrayType }
    package static var psqlFormat: PostgresFormat { .binary }

    private var elements: [UInt8] = []
    /// How many elements the column holds.
    package private(set) var count = 0

    package init() {}

    /// Makes room for `count` elements of about `bytes` bytes each.
    mutating func reserveCapacity(_ count: Int, bytesEach bytes: Int = Element.size ?? 0) {
        elements.reserveCapacity(count * (4 + bytes))
    }

    /// Appends one element from the bytes of its binary form.
    fileprivate mutating func append(binary bytes: UnsafeRawBufferPointer) {
        withUnsafeBytes(of: Int32(bytes.count).bigEndian) { elements.append(contentsOf: $0) }
        elements.append(contentsOf: bytes)
        count += 1
    }

    package func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        // The header postgres-nio writes for an array: dimensions (none when empty), no NULLs,
        // the element type; then the one dimension's length and lower bound.
        buffer.writeInteger(count == 0 ? 0 : 1, as: Int32.self)
        buffer.writeInteger(0, as: Int32.self)
        buffer.writeInteger(Element.elementType.rawValue)
        guard count > 0 else { return }
        buffer.writeInteger(Int32(count))
        buffer.writeInteger(1, as: Int32.self)
        buffer.writeBytes(elements)
    }
}

/// What an ``ArrayColumn`` holds: its PostgreSQL types, and how one element is appended.
package protocol ArrayColumnElement: Sendable {
    static var elementType: PostgresDataType { get }
    static var arrayType: PostgresDataType { get }
    /// The binary form's size, for an element of fixed size.
    static var size: Int? { get }
    /// Appends `value`'s binary form to `column`.
    static func append(_ value: Self, to column: inout ArrayColumn<Self>)
}

extension ArrayColumnElement where Self: PostgresArrayEncodable {
    /// The types postgres-nio binds the element with.
    package static var elementType: PostgresDataType { psqlType }
    package static var arrayType: PostgresDataType { psqlArrayType }
}

extension ArrayColumn {
    mutating func append(_ value: Element) {
        Element.append(value, to: &self)
    }
}

extension String: ArrayColumnElement {
    package static var size: Int? { nil }
    package static func append(_ value: String, to column: inout ArrayColumn<String>) {
        var value = value
        value.withUTF8 { column.append(binary: UnsafeRawBufferPointer($0)) }
    }
}

extension ArrayColumn<String> {
    /// Appends a text element from its UTF-8 bytes.
    mutating func append(utf8 bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(binary: $0) }
    }
}

extension Int64: ArrayColumnElement {
    package static var size: Int? { 8 }
    package static func append(_ value: Int64, to column: inout ArrayColumn<Int64>) {
        withUnsafeBytes(of: value.bigEndian) { column.append(binary: $0) }
    }
}

extension Double: ArrayColumnElement {
    package static var size: Int? { 8 }
    package static func append(_ value: Double, to column: inout ArrayColumn<Double>) {
        withUnsafeBytes(of: value.bitPattern.bigEndian) { column.append(binary: $0) }
    }
}

extension Bool: ArrayColumnElement {
    package static var size: Int? { 1 }
    package static func append(_ value: Bool, to column: inout ArrayColumn<Bool>) {
        withUnsafeBytes(of: UInt8(value ? 1 : 0)) { column.append(binary: $0) }
    }
}

/// A payload: a `bytea` element, typed as postgres-nio binds a `ByteBuffer`.
package struct PayloadBytes: ArrayColumnElement {
    package static var elementType: PostgresDataType { ByteBuffer.psqlType }
    package static var arrayType: PostgresDataType { ByteBuffer.psqlArrayType }
    package static var size: Int? { nil }
    let bytes: [UInt8]
    package static func append(_ value: PayloadBytes, to column: inout ArrayColumn<PayloadBytes>) {
        value.bytes.withUnsafeBytes { column.append(binary: $0) }
    }
}
