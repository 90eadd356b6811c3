@testable import Hermes
import HermesWire
import Testing

struct ResponseActionTests {
    static func pause(_ reason: UploadBlock.Reason, _ status: Int, code: String? = nil, message: String? = nil) -> ResponseAction {
        .pause(.init(reason: reason, status: status, code: code, message: message ?? "HTTP \(status)"))
    }

    @Test(arguments: [
        (200, ResponseAction.delivered(rejected: [])), (201, .delivered(rejected: [])), (204, .delivered(rejected: [])),
        (299, .delivered(rejected: [])),
        (413, .halve),
        (408, .retry(retryAfter: nil)), (429, .retry(retryAfter: nil)),
        (500, .retry(retryAfter: nil)), (502, .retry(retryAfter: nil)), (503, .retry(retryAfter: nil)), (599, .retry(retryAfter: nil)),
        (401, pause(.unauthorized, 401)), (403, pause(.unauthorized, 403)),
        (404, pause(.collectorNotFound, 404)), (410, pause(.collectorNotFound, 410)),
        (400, pause(.requestRefused, 400)), (405, pause(.requestRefused, 405)), (422, pause(.requestRefused, 422)),
        (100, .retry(retryAfter: nil)), (304, .retry(retryAfter: nil)), (600, .retry(retryAfter: nil)),
    ])
    func eachStatusMapsToItsAction(status: Int, action: ResponseAction) {
        #expect(ResponseAction(TransportResponse(status: status)) == action)
    }

    @Test func retryAfterTravelsWithRetriableStatusesOnly() {
        #expect(ResponseAction(TransportResponse(status: 429, headers: ["Retry-After": "7"])) == .retry(retryAfter: .seconds(7)))
        #expect(ResponseAction(TransportResponse(status: 503, headers: ["Retry-After": "120"])) == .retry(retryAfter: .seconds(120)))
        #expect(ResponseAction(TransportResponse(status: 200, headers: ["Retry-After": "7"])) == .delivered(rejected: []))
        #expect(ResponseAction(TransportResponse(status: 401, headers: ["Retry-After": "7"])) == Self.pause(.unauthorized, 401))
    }

    @Test func aRefusalOfThePacketAsAWholeIsToldFromOtherBadRequestsByItsScope() throws {
        let packet = try CollectorRefusal(error: "unknownKey", reason: "no AES-GCM key with id 9", scope: .packet).json.jsonBytes()
        let request = try CollectorRefusal(error: "missingHeader", reason: "the X-Hermes-Namespace header is required", scope: .request).json
            .jsonBytes()

        let packetAction = ResponseAction(TransportResponse(status: 400, body: packet))
        let requestAction = ResponseAction(TransportResponse(status: 400, body: request))

        #expect(packetAction == Self.pause(.packetRefused, 400, code: "unknownKey", message: "no AES-GCM key with id 9"))
        #expect(requestAction == Self.pause(.requestRefused, 400, code: "missingHeader", message: "the X-Hermes-Namespace header is required"))
        guard case .pause(let refusal) = packetAction, case .pause(let other) = requestAction else { return }
        #expect(refusal.refreshesConfiguration && !other.refreshesConfiguration)
    }

    @Test func aSuccessCarriesTheRecordsTheCollectorRejected() throws {
        let answer = UploadAnswer(
            stored: 1, duplicates: 0, rejected: [.init(index: 1, reportID: "r2", code: "invalidField", reason: "IS_BIZ must be true or false")])
        let action = ResponseAction(TransportResponse(status: 200, body: try answer.json.jsonBytes()))
        #expect(action == .delivered(rejected: answer.rejected))
    }
}
