import ArgumentParser
import Foundation
import Hermes
import HermesHarness

/// `hermes inspect <storageDirectory>`: what a client's store holds.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the rows of a Hermes store per namespace and table."
    )

    @Argument(help: "The client's storage directory (it holds hermes.sqlite).")
    var storageDirectory: String

    func run() throws {
        let report = try StoreInspector.inspect(storageDirectory: URL(fileURLWithPath: storageDirectory))
        print(Self.render(report))
    }

    static func render(_ report: StoreInspector.Report) -> String {
        var table = TextTable(columns: ["namespace", "table", "rows", "bytes", "oldest", "newest"])
        for group in report.groups {
            table.add([group.namespace, group.table, "\(group.rows)", "\(group.bytes)", timestamp(group.oldest), timestamp(group.newest)])
        }
        var lines = report.groups.isEmpty ? ["(no records)"] : [table.render()]
        lines.append("file: \(report.fileBytes) bytes, \(report.pageCount) pages of \(report.pageSize) bytes, \(report.freePages) free")
        return lines.joined(separator: "\n")
    }

    private static func timestamp(_ milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        return date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false))
    }
}
