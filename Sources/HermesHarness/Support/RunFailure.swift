/// A run of a command that could not be carried out — a child that never started or answered,
/// a file that could not be written — as opposed to one that ran and whose verdict failed.
package struct RunFailure: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
