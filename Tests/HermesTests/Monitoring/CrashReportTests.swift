import Foundation
@testable import Hermes
import Testing

struct CrashReportTests {
    @Test func aCompleteReportGivesEveryFieldAndFrameInOrder() throws {
        let report = try #require(
            CrashReport(
                text: """
                    hermes-crash 1
                    signal 11
                    code 1
                    address 0x8
                    time 1732430000123
                    pid 4242
                    thread 4243
                    frame 0x55d1c2a3c4f1
                    frame 0x55d1c2a3c000
                    end

                    """))

        #expect(
            report
                == CrashReport(
                    signal: 11, code: 1, address: 8, time: 1_732_430_000_123, pid: 4242, thread: 4243,
                    frames: [0x55d1_c2a3_c4f1, 0x55d1_c2a3_c000], isComplete: true
                ))
    }

    @Test func aReportCutShortByTheHandlerIsIncomplete() throws {
        let report = try #require(CrashReport(text: "hermes-crash 1\nsignal 4\ncode 2\naddress 0x55d1\n"))

        #expect(report.signal == 4)
        #expect(report.frames.isEmpty)
        #expect(!report.isComplete)
    }

    @Test func anEmptyFileIsNoReport() {
        #expect(CrashReport(text: "") == nil)
        #expect(CrashReport(text: "hermes-crash 1\n") == nil)
    }

    @Test func signalsAreNamed() {
        #expect(CrashReport.signalName(11) == "SIGSEGV")
        #expect(CrashReport.signalName(4) == "SIGILL")
        #expect(CrashReport.signalName(5) == "SIGTRAP")
        #expect(CrashReport.signalName(6) == "SIGABRT")
        #expect(CrashReport.signalName(8) == "SIGFPE")
        #expect(CrashReport.signalName(SIGBUS) == "SIGBUS")
        #expect(CrashReport.signalName(15) == "signal 15")
    }
}

extension CrashReportTests {
    @Test func aNegativeSignalCodeIsRead() throws {
        // abort() raises with SI_TKILL, -6
        let report = try #require(CrashReport(text: "signal 6\ncode -6\naddress 0xcf3\nend\n"))

        #expect(report.code == -6)
        #expect(report.address == 0xCF3)
        #expect(report.isComplete)
    }
}
