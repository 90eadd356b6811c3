import HermesWire
import Hummingbird

extension Response {
    /// A response whose body is `bytes`, labelled `Content-Type: application/json`.
    static func json(bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A response whose body is `value` as compact JSON.
    /// - Throws: `HermesWireError/Code/nonFiniteNumber` if `value` holds NaN or an infinity.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        json(bytes: try value.jsonBytes(), status: status, headers: headers)
    }
}
