import Foundation
@testable import Hermes
import Testing

struct JournalRecordCodecTests {
    private static let record = PendingRecord(
        reportID: "0193-ünï", namespace: "JZ", monitorType: "JZ-支付", isBusiness: true, createdTime: -5, appVersion: "2.0 β",
        meta: Array(#"{"a":"é"}"#.utf8), payload: Data([0, 255, 7])
    )

    private static func encoded(_ record: PendingRecord) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xAA, count: JournalRecordCodec.size(of: record))
        bytes.withUnsafeMutableBytes { JournalRecordCodec.encode(record, to: $0.baseAddress!) }
        return bytes
    }

    @Test func aRecordWithMultiByteTextAndAPayloadComesBackWhole() throws {
        let bytes = Self.encoded(Self.record)
        let decoded = try #require(bytes.withUnsafeBytes { JournalRecordCodec.decode($0) })
        let sent = Self.record
        #expect(decoded.reportID == sent.reportID && decoded.namespace == sent.namespace && decoded.monitorType == sent.monitorType)
        #expect(decoded.isBusiness && decoded.createdTime == -5 && decoded.appVersion == sent.appVersion)
        #expect(decoded.meta == sent.meta && decoded.payload == sent.payload)
    }

    @Test func lengthsThatDoNotAddUpToTheFrameAreRefused() {
        let bytes = Self.encoded(Self.record)
        #expect(bytes.dropLast().withUnsafeBytes { JournalRecordCodec.decode($0) } == nil)
        #expect((bytes + [0]).withUnsafeBytes { JournalRecordCodec.decode($0) } == nil)
        #expect(bytes.prefix(JournalRecordCodec.headerSize - 1).withUnsafeBytes { JournalRecordCodec.decode($0) } == nil)
    }
}
