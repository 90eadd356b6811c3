/// A plain text table with left-aligned text and right-aligned numbers, for terminal output.
package struct TextTable {
    package let columns: [String]
    private var rows: [[String]] = []

    package init(columns: [String]) {
        self.columns = columns
    }

    package mutating func add(_ row: [String]) {
        rows.append(row)
    }

    package func render() -> String {
        let all = [columns] + rows
        let widths = columns.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.indices.map { column in
                let cell = row[column]
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return cell.first?.isNumber == true && cell.allSatisfy({ $0.isNumber || $0 == "." || $0 == "x" }) ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
