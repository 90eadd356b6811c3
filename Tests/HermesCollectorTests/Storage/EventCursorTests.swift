import HermesCollector
import Testing

struct EventCursorTests {
    @Test(arguments: [EventCursor(createTime: 0, id: 0), EventCursor(createTime: 1_795_400_000_123, id: 42), EventCursor(createTime: -5, id: .max)])
    func tokenReadsBackToTheSameCursor(cursor: EventCursor) {
        #expect(EventCursor(token: cursor.token) == cursor)
        #expect(!cursor.token.contains("="))
    }

    @Test(arguments: ["", "abc", "MTox", "Mjo1OjY", String(repeating: "A", count: 100)])
    func textThatIsNoTokenIsRefused(token: String) {
        #expect(EventCursor(token: token) == nil)
    }
}
