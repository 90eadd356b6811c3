package import Foundation

/// A URL from text a benchmark or torture builds itself.
/// - Throws: ``RunFailure`` when the text is not a URL.
package func requireURL(_ text: String) throws -> URL {
    guard let url = URL(string: text) else { throw RunFailure("not a URL: \(text)") }
    return url
}
