import Hermes

extension Diagnostics {
    /// Records lost for the reason named `name`, over every namespace.
    func lost(reasonNamed name: String) -> Int {
        losses.values.reduce(0) { total, reasons in
            total + reasons.filter { $0.key.name == name }.values.reduce(0, +)
        }
    }
}
