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

    @Test func aStrictReadTakesOnlyACollectorsAnswer() throws {
        let answer = UploadAnswer(stored: 2, duplicates: 1, rejected: [.init(index: 1, reportID: "r1", code: "invalidField", reason: "bad")])
        let read = try #require(UploadAnswer(strictBody: try answer.json.jsonBytes()))
        #expect(read == answer)
        #expect(read.accounts(forRecords: 4) && !read.accounts(forRecords: 3) && !read.accounts(forRecords: 5))
    }

    @Test(arguments: [
        "", "OK", "{}", "[]", "<html></html>", #"{"stored":2,"duplicates":0}"#, #"{"stored":2,"rejected":[]}"#,
        #"{"stored":2.5,"duplicates":0,"rejected":[]}"#, #"{"stored":-1,"duplicates":0,"rejected":[]}"#,
        #"{"stored":1,"duplicates":0,"rejected":[{"code":"x","reason":"y"}]}"#,
    ])
    func aStrictReadOfAnythingElseIsNil(body: String) {
        #expect(UploadAnswer(strictBody: Array(body.utf8)) == nil)
    }

    @Test func countsPastTheLargestIntegerAccountForNothing() throws {
        let answer = try #require(UploadAnswer(strictBody: Array(#"{"stored":9223372036854775807,"duplicates":1,"rejected":[]}"#.utf8)))
        #expect(!answer.accounts(forRecords: 1))
    }
}
