import Foundation
@testable import HermesTransport
import Testing

/// The bytes the socket transport writes for a request: request line, `Host`, framing, fields
/// in name order, body.
struct HTTPRequestEncoderTests {
    private func encoded(_ method: String, _ url: String, host: String, port: Int, headers: [String: String] = [:], body: String = "")
        throws -> String
    {
        let request = TransportRequest(method: method, url: URL(string: url)!, headers: headers, body: Array(body.utf8))
        return String(decoding: try HTTPRequestEncoder.encode(request, host: host, port: port), as: UTF8.self)
    }

    @Test func aPostCarriesItsPathQueryLengthAndSortedFields() throws {
        let text = try encoded(
            "POST", "http://127.0.0.1:8080/v1/upload/meta?x=1&y=%20", host: "127.0.0.1", port: 8080,
            headers: ["X-Hermes-Namespace": "JZ", "Content-Type": "application/octet-stream"], body: "abc")
        #expect(
            text
                == "POST /v1/upload/meta?x=1&y=%20 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Length: 3\r\n"
                + "Content-Type: application/octet-stream\r\nX-Hermes-Namespace: JZ\r\n\r\nabc")
    }

    @Test func aBarePathIsSlashPort80IsLeftOutAndAGetHasNoLength() throws {
        #expect(
            try encoded("GET", "http://collector.example", host: "collector.example", port: 80)
                == "GET / HTTP/1.1\r\nHost: collector.example\r\n\r\n")
    }

    @Test func anIPv6HostIsBracketedAndAPercentEncodedPathStaysEncoded() throws {
        #expect(
            try encoded("PUT", "http://[::1]:9/a%2Fb/c%C3%A9", host: "::1", port: 9)
                == "PUT /a%2Fb/c%C3%A9 HTTP/1.1\r\nHost: [::1]:9\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func fieldsHTTPCannotCarryAreRefused() {
        for headers in [["X-A": "1\r\nX-B: 2"], ["Bad Name": "1"], ["content-length": "5"], ["Host": "elsewhere"]] {
            #expect(throws: SocketTransportError.self) { try encoded("GET", "http://h/", host: "h", port: 80, headers: headers) }
        }
        #expect(throws: SocketTransportError.self) { try encoded("GE T", "http://h/", host: "h", port: 80) }
    }
}
