public import Foundation
public import HermesWire

/// A handle on one namespace of a client, for people who prefer it to the `prefix:` facade.
///
/// ```swift
/// let jz = client.namespace("JZ")
/// jz.send(type: "pay", meta: ["amount": 12])   // MONITOR_TYPE "JZ-pay"
/// ```
public struct Namespace: Sendable {
    /// The namespace's name.
    public let name: String
    let client: HermesClient

    /// Sends a record to this namespace; see ``HermesClient/send(type:prefix:meta:payload:)-(_,_,[String:JSONValue],_)``.
    @discardableResult
    public func send(type: String, meta: [String: JSONValue], payload: Data? = nil) -> SendOutcome {
        client.send(type: type, prefix: name, meta: meta, payload: payload)
    }

    /// The configuration this namespace runs under now, or `nil` when nothing configures it.
    public var configuration: NamespaceConfiguration? {
        client.configuration(for: name)
    }
}
