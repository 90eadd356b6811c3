import HermesWire
import Testing

struct UploadAnswerTests {
    @Test func anAnswerRoundTripsThroughItsJSONBody() throws {
        let answer = UploadAnswer(
            stored: 3, duplicates: 1,
            rejected: [
                .init(index: 2, reportID: "r2", code: "invalidField", reason: "CREATE_TIME must be an integer"),
                .init(index: 4, reportID: nil, code: "missingField", reason: "REPORT_ID is missing"),
            ])
        let body = try answer.json.jsonString()
        #expect(
            body
                == #"{"duplicates":1,"rejected":[{"REPORT_ID":"r2","code":"invalidField","index":2,"reason":"CREATE_TIME must be an integer"},{"code":"missingField","index":4,"reason":"REPORT_ID is missing"}],"stored":3}"#
        )
        #expect(UploadAnswer(body: Array(body.utf8)) == answer)
    }

    @Test(arguments: ["", "not json", #"{"stored":2}"#, #"{"rejected":"none"}"#])
    func anEmptyOrUnreadableBodyMeansNothingWasRejected(body: String) {
        #expect(UploadAnswer(body: Array(body.utf8)).rejected.isEmpty)
    }

    @Test func entriesWithoutAnIndexCodeOrReasonAreLeftOut() {
        let body = #"{"rejected":[{"index":1,"code":"x"},{"code":"x","reason":"y"},{"index":0,"code":"x","reason":"y","REPORT_ID":5}]}"#
        #expect(UploadAnswer(body: Array(body.utf8)).rejected == [.init(index: 0, reportID: nil, code: "x", reason: "y")])
    }
}
