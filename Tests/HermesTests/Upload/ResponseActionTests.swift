@testable import Hermes
import HermesWire
import Testing

struct ResponseActionTests {
    static func pause(_ reason: UploadBlock.Reason, _ status: Int, code: String? = nil, message: String? = nil) -> ResponseAction {
        .pause(.init(reason: reason, status: status, code: code, message: message ?? "HTTP \(status)"))
    }

    /// Reads `response` as the answer to batch `b1` of 3 records.
    static func action(_ response: TransportResponse, acceptsUnacknowledgedSuccess: Bool = false) -> ResponseAction {
        ResponseAction(response, batchID: "b1", records: 3, acceptsUnacknowledgedSuccess: acceptsUnacknowledgedSuccess)
    }

    static let acknowledged = [HermesHeader.batchAcknowledged: "b1"]

    @Test(arguments: [
        (200, ResponseAction.unacknowledged), (201, .unacknowledged), (204, .unacknowledged), (299, .unacknowledged),
        (413, .halve),
        (408, .retry(retryAfter: nil)), (429, .retry(retryAfter: nil)),
        (500, .retry(retryAfter: nil)), (502, .retry(retryAfter: nil)), (503, .retry(retryAfter: nil)), (599, .retry(retryAfter: nil)),
        (401, pause(.unauthorized, 401)), (403, pause(.unauthorized, 403)),
        (404, pause(.collectorNotFound, 404)), (410, pause(.collectorNotFound, 410)),
        (400, pause(.requestRefused, 400)), (405, pause(.requestRefused, 405)), (422, pause(.requestRefused, 422)),
        (100, .retry(retryAfter: nil)), (304, .retry(retryAfter: nil)), (600, .retry(retryAfter: nil)),
    ])
    func eachStatusMapsToItsAction(status: Int, action: ResponseAction) {
        #expect(Self.action(TransportResponse(status: status)) == action)
    }

    @Test(arguments: [200, 201, 204, 299])
    func aSuccessNamingTheBatchInItsAcknowledgementHeaderDeliversIt(status: Int) {
        #expect(Self.action(TransportResponse(status: status, headers: Self.acknowledged)) == .delivered(rejected: []))
        #expect(Self.action(TransportResponse(status: status, headers: ["x-hermes-batch-ack": "b1"])) == .delivered(rejected: []))
    }

    @Test(arguments: [
        "", "OK", "{}", "<html><body><h1>Welcome to nginx!</h1></body></html>", "[]", "null",
        #"{"stored":3}"#, #"{"stored":3,"duplicates":0}"#, #"{"stored":3,"duplicates":0,"rejected":"none"}"#,
        #"{"stored":2,"duplicates":0,"rejected":[]}"#, #"{"stored":4,"duplicates":0,"rejected":[]}"#,
        #"{"stored":3.0,"duplicates":0,"rejected":[]}"#, #"{"stored":"3","duplicates":0,"rejected":[]}"#,
        #"{"stored":4,"duplicates":-1,"rejected":[]}"#, #"{"stored":2,"duplicates":0,"rejected":[{"index":1}]}"#,
        #"{"stored":9223372036854775807,"duplicates":9223372036854775807,"rejected":[]}"#,
    ])
    func aSuccessThatProvesNothingIsUnacknowledged(body: String) {
        #expect(Self.action(TransportResponse(status: 200, body: Array(body.utf8))) == .unacknowledged)
        #expect(
            Self.action(TransportResponse(status: 200, headers: [HermesHeader.batchAcknowledged: "b2"], body: Array(body.utf8))) == .unacknowledged)
    }

    @Test(arguments: [
        #"{"stored":3,"duplicates":0,"rejected":[]}"#, #"{"stored":1,"duplicates":2,"rejected":[]}"#,
        #"{"stored":0,"duplicates":2,"rejected":[{"index":0,"code":"invalidField","reason":"bad"}]}"#,
    ])
    func aSuccessWhoseAnswerCountsEveryRecordOfTheBatchDeliversIt(body: String) {
        #expect(
            Self.action(TransportResponse(status: 200, body: Array(body.utf8))) == .delivered(rejected: UploadAnswer(body: Array(body.utf8)).rejected)
        )
    }

    @Test(arguments: ["", "OK", "{}"])
    func acceptingUnacknowledgedSuccessDeliversAnyTwoHundred(body: String) {
        #expect(Self.action(TransportResponse(status: 200, body: Array(body.utf8)), acceptsUnacknowledgedSuccess: true) == .delivered(rejected: []))
        #expect(Self.action(TransportResponse(status: 503), acceptsUnacknowledgedSuccess: true) == .retry(retryAfter: nil))
    }

    @Test func retryAfterTravelsWithRetriableStatusesOnly() {
        #expect(Self.action(TransportResponse(status: 429, headers: ["Retry-After": "7"])) == .retry(retryAfter: .seconds(7)))
        #expect(Self.action(TransportResponse(status: 503, headers: ["Retry-After": "120"])) == .retry(retryAfter: .seconds(120)))
        #expect(
            Self.action(TransportResponse(status: 200, headers: Self.acknowledged.merging(["Retry-After": "7"]) { $1 })) == .delivered(rejected: []))
        #expect(Self.action(TransportResponse(status: 401, headers: ["Retry-After": "7"])) == Self.pause(.unauthorized, 401))
    }

    @Test func aRefusalOfThePacketAsAWholeIsToldFromOtherBadRequestsByItsScope() throws {
        let packet = try CollectorRefusal(error: "unknownKey", reason: "no AES-GCM key with id 9", scope: .packet).json.jsonBytes()
        let request = try CollectorRefusal(error: "missingHeader", reason: "the X-Hermes-Namespace header is required", scope: .request).json
            .jsonBytes()

        let packetAction = Self.action(TransportResponse(status: 400, body: packet))
        let requestAction = Self.action(TransportResponse(status: 400, body: request))

        #expect(packetAction == Self.pause(.packetRefused, 400, code: "unknownKey", message: "no AES-GCM key with id 9"))
        #expect(requestAction == Self.pause(.requestRefused, 400, code: "missingHeader", message: "the X-Hermes-Namespace header is required"))
        guard case .pause(let refusal) = packetAction, case .pause(let other) = requestAction else { return }
        #expect(refusal.refreshesConfiguration && !other.refreshesConfiguration)
    }

    @Test func aSuccessCarriesTheRecordsTheCollectorRejected() throws {
        let answer = UploadAnswer(
            stored: 1, duplicates: 0, rejected: [.init(index: 1, reportID: "r2", code: "invalidField", reason: "IS_BIZ must be true or false")])
        let action = Self.action(TransportResponse(status: 200, headers: Self.acknowledged, body: try answer.json.jsonBytes()))
        #expect(action == .delivered(rejected: answer.rejected))
    }
}
