public import Foundation
import HermesWire

/// Turns an `Encodable` meta into the meta dictionary `send` takes: encoded with sorted keys,
/// dates as milliseconds since 1970 and data as Base64, then read back as ``JSONValue``, so
/// the same value always gives the same bytes, and the bytes of the equivalent dictionary.
enum EncodableMeta {
    static func members(of meta: some Encodable, type: String) -> Result<[String: JSONValue], HermesError> {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .millisecondsSince1970
        do {
            let value = try JSONValue(parsing: Array(encoder.encode(meta)))
            guard case .object(let members) = value else {
                return .failure(
                    HermesError(.invalidMeta, "meta of type \(type) must encode as a JSON object (a struct or a dictionary with String keys)"))
            }
            return .success(members)
        } catch {
            return .failure(HermesError(.invalidMeta, "meta of type \(type) cannot be written as JSON: \(error)"))
        }
    }
}

extension HermesClient {
    /// Sends a record to the `hermes` namespace with an `Encodable` meta (a struct), encoded
    /// deterministically; same checks, limits and errors as the dictionary form, plus
    /// ``HermesError/Code/invalidMeta`` for a value JSON cannot represent (NaN, or not an object).
    ///
    /// ```swift
    /// struct Boot: Encodable { var ms: Int; var cold: Bool }
    /// client.send(type: "appBoot", meta: Boot(ms: 420, cold: true))
    /// ```
    /// Encoding through `JSONEncoder` costs some microseconds more than a dictionary.
    @discardableResult
    public func send(type: String, meta: some Encodable, payload: Data? = nil) -> SendOutcome {
        submit(type: type, namespace: RecordNamespace.monitoring, encodable: meta, payload: payload)
    }

    /// Sends a record with an `Encodable` meta to the namespace named by `prefix` (`hermes`
    /// names the monitoring namespace, as in the `[String: JSONValue]` form); encoded and
    /// checked as in the `hermes` form above.
    @discardableResult
    public func send(type: String, prefix: String, meta: some Encodable, payload: Data? = nil) -> SendOutcome {
        submit(type: type, namespace: prefix, encodable: meta, payload: payload)
    }

    private func submit(type: String, namespace: String, encodable: some Encodable, payload: Data?) -> SendOutcome {
        var input = RecordBuilder.Input(type: type, namespace: namespace, meta: [:], payload: payload)
        switch EncodableMeta.members(of: encodable, type: type) {
        case .success(let members):
            input.meta = members
            return submit(input)
        case .failure(let error):
            return reject(error, input)
        }
    }
}

extension Namespace {
    /// Sends a record with an `Encodable` meta to this namespace.
    @discardableResult
    public func send(type: String, meta: some Encodable, payload: Data? = nil) -> SendOutcome {
        client.send(type: type, prefix: name, meta: meta, payload: payload)
    }
}
