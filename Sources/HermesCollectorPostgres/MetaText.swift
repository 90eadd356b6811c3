package import NIOCore
package import PostgresNIO

/// A meta line bound as `text` from its bytes as received, without a `String` made of it.
///
/// The line passed the ingest check: JSON whose strings are valid UTF-8, so the whole line is
/// UTF-8, and a NUL byte (which `text` cannot hold) can only appear escaped.
package struct MetaText: PostgresArrayEncodable, PostgresNonThrowingEncodable {
    package static var psqlType: PostgresDataType { .text }
    package static var psqlFormat: PostgresFormat { .binary }
    package static var psqlArrayType: PostgresDataType { .textArray }

    package let bytes: [UInt8]

    package func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeBytes(bytes)
    }
}
