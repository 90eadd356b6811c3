import Foundation
@testable import Hermes
import Testing

struct CrashSymbolicatorTests {
    @Test func anAddressInsideAFunctionOfThisBinaryIsNamedDemangledWithItsOffset() throws {
        // Given the images of this process, as the crash handler's installer writes them
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-symbolicator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let imagesFile = directory.appendingPathComponent("run.images")
        #expect(CrashCapture.writeImages(to: imagesFile) == nil)
        let images = CrashImage.parse(try String(contentsOf: imagesFile, encoding: .utf8))
        #expect(images.contains { $0.path.hasSuffix("xctest") || $0.path.contains("HermesPackageTests") })

        // When a report's first frame lies 4 bytes into a known function
        let entry: @convention(c) () -> Int = markerEntryFunction
        let address = UInt64(UInt(bitPattern: unsafeBitCast(entry, to: Int.self))) + 4
        let report = CrashReport(signal: 11, code: 1, address: 0, time: 0, pid: 1, thread: 1, frames: [address, 0], isComplete: true)
        let text = CrashSymbolicator().symbolicate(report, images: images)

        // Then the stack names it, demangled, with the offset; an address in no image is ???
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Crashed: SIGSEGV (code 1) at 0x0, thread 1")
        #expect(lines[1].hasPrefix("0   "))
        #expect(lines[1].contains("markerEntryFunction") || lines[1].contains("hermes_tests_marker_entry"), "\(lines[1])")
        #expect(lines[1].hasSuffix(" + 4"), "\(lines[1])")
        #expect(lines[2] == "1   ???  0x0")
    }

    @Test func swiftNamesAreDemangledAndOthersKept() {
        #expect(CrashSymbolicator.demangle("$s4main3fooyyF") == "main.foo() -> ()")
        #expect(CrashSymbolicator.demangle("memcpy") == "memcpy")
    }
}

/// An exported C-convention entry point: its address is a real function address of this binary.
@_cdecl("hermes_tests_marker_entry") func markerEntryFunction() -> Int {
    Int(ProcessInfo.processInfo.processIdentifier)
}
