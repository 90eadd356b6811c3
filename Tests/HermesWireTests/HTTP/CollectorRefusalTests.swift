import HermesWire
import Testing

struct CollectorRefusalTests {
    @Test func aRefusalRoundTripsWithItsScope() throws {
        let refusal = CollectorRefusal(error: "unknownKey", reason: "no key 9", scope: .packet)
        let body = try refusal.json.jsonBytes()
        #expect(String(decoding: body, as: UTF8.self) == #"{"error":"unknownKey","reason":"no key 9","scope":"packet"}"#)
        #expect(CollectorRefusal(body: body) == refusal)
    }

    @Test func aBodyWithoutScopeIsAboutTheRequestAndOneWithoutErrorIsNone() {
        #expect(CollectorRefusal(body: Array(#"{"error":"unauthorized","reason":"r"}"#.utf8))?.scope == .request)
        #expect(CollectorRefusal(body: Array(#"{"reason":"r"}"#.utf8)) == nil)
        #expect(CollectorRefusal(body: []) == nil)
    }
}
