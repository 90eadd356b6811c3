@testable import Hermes
import Testing

struct ResponseActionTests {
    @Test(arguments: [
        (200, ResponseAction.delete), (201, .delete), (204, .delete), (299, .delete),
        (413, .halve),
        (408, .retry(retryAfter: nil)), (429, .retry(retryAfter: nil)),
        (500, .retry(retryAfter: nil)), (502, .retry(retryAfter: nil)), (503, .retry(retryAfter: nil)), (599, .retry(retryAfter: nil)),
        (400, .countAttempt), (401, .countAttempt), (403, .countAttempt), (404, .countAttempt), (422, .countAttempt),
        (100, .retry(retryAfter: nil)), (304, .retry(retryAfter: nil)), (600, .retry(retryAfter: nil)),
    ])
    func eachStatusMapsToItsAction(status: Int, action: ResponseAction) {
        #expect(ResponseAction(status: status, retryAfter: nil) == action)
    }

    @Test func retryAfterTravelsWithRetriableStatusesOnly() {
        #expect(ResponseAction(status: 429, retryAfter: "7") == .retry(retryAfter: .seconds(7)))
        #expect(ResponseAction(status: 503, retryAfter: "120") == .retry(retryAfter: .seconds(120)))
        #expect(ResponseAction(status: 200, retryAfter: "7") == .delete)
        #expect(ResponseAction(status: 400, retryAfter: "7") == .countAttempt)
    }
}
