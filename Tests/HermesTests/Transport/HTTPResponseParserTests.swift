@testable import HermesTransport
import Testing

/// Reading HTTP/1.x answers from bytes as they arrive, without sockets.
struct HTTPResponseParserTests {
    private func parser(maxHeader: Int = 1_024, maxBody: Int = 1_024, expectsBody: Bool = true) -> HTTPResponseParser {
        HTTPResponseParser(maxHeaderBytes: maxHeader, maxBodyBytes: maxBody, expectsBody: expectsBody)
    }

    /// Feeds `pieces` one after the other, as separate reads, then the end if `close`.
    private func read(_ pieces: [String], close: Bool = false, with parser: HTTPResponseParser? = nil) throws(SocketTransportError)
        -> HTTPResponseParser.Parsed?
    {
        var parser = parser ?? self.parser()
        var buffer: [UInt8] = []
        for piece in pieces {
            buffer += Array(piece.utf8)
            if let parsed = try parser.parse(&buffer, atEnd: false) { return parsed }
        }
        return close ? try parser.parse(&buffer, atEnd: true) : nil
    }

    @Test func aLengthFramedAnswerSplitAnywhereIsReadWhole() throws {
        let answer = "HTTP/1.1 413 Payload Too Large\r\nContent-Length: 5\r\nRetry-After:  7 \r\n\r\nhello"
        for split in 1..<answer.utf8.count {
            let bytes = Array(answer.utf8)
            let pieces = [String(decoding: bytes[..<split], as: UTF8.self), String(decoding: bytes[split...], as: UTF8.self)]
            let parsed = try #require(try read(pieces))
            #expect(parsed.response.status == 413)
            #expect(parsed.response.body == Array("hello".utf8))
            #expect(parsed.response.header("retry-after") == "7")
            #expect(parsed.reusable)
        }
    }

    @Test func anIncompleteAnswerWaitsForMoreBytes() throws {
        #expect(try read(["HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel"]) == nil)
        #expect(try read(["HTTP/1.1 200 OK\r\nContent-Le"]) == nil)
    }

    @Test func connectionCloseAndHTTP10MakeTheConnectionSingleUse() throws {
        #expect(try read(["HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"])?.reusable == false)
        #expect(try read(["HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"])?.reusable == false)
        #expect(try read(["HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n"])?.reusable == true)
    }

    @Test func aBodyWithoutLengthEndsWithTheConnection() throws {
        let parsed = try #require(try read(["HTTP/1.1 200 OK\r\n\r\nall ", "of it"], close: true))
        #expect(String(decoding: parsed.response.body, as: UTF8.self) == "all of it")
        #expect(!parsed.reusable)
    }

    @Test func chunkedBodiesAndInterimAnswersAreDecoded() throws {
        let parsed = try #require(
            try read([
                "HTTP/1.1 100 Continue\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n",
                "A\r\n0123456789\r\n0\r\n\r\n",
            ]))
        #expect(parsed.response.status == 200)
        #expect(String(decoding: parsed.response.body, as: UTF8.self) == "abc0123456789")
        #expect(parsed.reusable)
    }

    @Test func noBodyIsReadForHEADOr204() throws {
        #expect(try read(["HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n"], with: parser(expectsBody: false))?.response.body == [])
        #expect(try read(["HTTP/1.1 204 No Content\r\n\r\n"])?.response.status == 204)
    }

    @Test func answersPastTheBoundsAreRefused() {
        let answers = [
            ["HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 2_000)],
            ["HTTP/1.1 200 OK\r\nContent-Length: 2048\r\n\r\n"],
            ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n"],
            ["HTTP/1.1 200 OK\r\n\r\n", String(repeating: "a", count: 1_100)],
        ]
        for pieces in answers {
            do {
                _ = try read(pieces)
                Issue.record("\(pieces.first ?? "") was read")
            } catch {
                #expect(error.code == .responseTooLarge)
            }
        }
    }

    @Test func malformedAndTruncatedAnswersAreTypedErrors() {
        let cases: [([String], Bool, SocketTransportError.Code)] = [
            (["SMTP ready\r\n\r\n"], false, .invalidResponse),
            (["HTTP/1.1 200 OK\r\nno colon\r\n\r\n"], false, .invalidResponse),
            (["HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"], false, .invalidResponse),
            (["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"], false, .invalidResponse),
            (["HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort"], true, .connectionClosed),
            ([], true, .connectionClosed),
        ]
        for (pieces, close, code) in cases {
            do {
                _ = try read(pieces, close: close)
                Issue.record("\(pieces) was read")
            } catch {
                #expect(error.code == code, "\(pieces)")
            }
        }
    }
}
