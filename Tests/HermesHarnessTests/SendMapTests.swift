import Foundation
@testable import HermesHarness
import Testing

/// The file in which a burst child marks what each `send` returned.
struct SendMapTests {
    @Test func marksStoredInTheMappingAreInTheFileWhileTheMapIsStillOpen() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sends-\(UUID().uuidString).map").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Given a map of three pages and more
        let map = try SendMap(creatingAt: path, count: 12_298)
        map.mark(0, .accepted)
        map.mark(8_193, .rejected)
        map.mark(12_297, .accepted)

        // When the file is read while the mapping is still open (as after a SIGKILL: no unmap, no msync)
        let marks = SendMap.marks(at: path)

        // Then every mark is there, and every other record reads as not returned
        #expect(marks.count == 12_298)
        #expect(SendMap.numbers(.accepted, in: marks, first: 0) == Set<Int64>([0, 12_297]))
        #expect(SendMap.numbers(.rejected, in: marks, first: 0) == Set<Int64>([8_193]))
        #expect(marks.filter { $0 == .notReturned }.count == marks.count - 3)
        withExtendedLifetime(map) {}
    }

    @Test func aFileThatDoesNotExistHoldsNoMarks() {
        #expect(SendMap.marks(at: "/nonexistent/sends.map").isEmpty)
    }

    @Test func aMapThatCannotBeCreatedSaysWhere() {
        #expect(throws: RunFailure.self) { try SendMap(creatingAt: "/nonexistent/sends.map", count: 10) }
    }
}
