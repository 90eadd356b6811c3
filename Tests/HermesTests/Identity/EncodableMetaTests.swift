import Foundation
import GRDB
@testable import Hermes
import HermesWire
import Testing

/// `send` with an `Encodable` meta: deterministic, the same bytes as the dictionary, same errors.
struct EncodableMetaTests {
    struct Purchase: Encodable {
        struct Item: Encodable {
            var sku: String
            var quantity: Int
        }
        var amount: Int
        var currency: String
        var price: Double
        var items: [Item]
        var coupon: String?
        var gift: Bool
    }

    @Test func anEncodableIsStoredByteForByteAsTheEquivalentDictionary() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        let purchase = Purchase(amount: 12, currency: "EUR", price: 2.5, items: [.init(sku: "a-1", quantity: 2)], coupon: nil, gift: true)
        let dictionary: [String: JSONValue] = [
            "amount": 12, "currency": "EUR", "price": 2.5, "items": [["sku": "a-1", "quantity": 2]], "gift": true,
        ]
        let fromStruct = try #require(client.send(type: "pay", prefix: "JZ", meta: purchase).reportID)
        let fromDictionary = try #require(client.send(type: "pay", prefix: "JZ", meta: dictionary).reportID)
        try await client.flush()
        await client.shutdown()

        let stored = try harness.rows("meta").map { $0["meta"] as String }
        #expect(stored.count == 2)
        #expect(stored[0].replacingOccurrences(of: fromStruct, with: "ID") == stored[1].replacingOccurrences(of: fromDictionary, with: "ID"))
    }

    @Test func aValueJSONCannotHoldIsInvalidMeta() async throws {
        struct Reading: Encodable { var value: Double }
        let harness = Harness()
        let client = try harness.identityClient()
        #expect(client.send(type: "appLag", meta: Reading(value: .nan)).code == .invalidMeta)
        #expect(client.send(type: "appLag", meta: [1, 2, 3]).code == .invalidMeta)
        #expect(client.send(type: "appLag", meta: "text").code == .invalidMeta)
        await client.shutdown()
        #expect(try harness.rows("meta").isEmpty)
    }

    @Test func theNamespaceLimitsApply() async throws {
        struct Blob: Encodable { var text: String }
        let harness = Harness()
        let client = try harness.identityClient()
        let limit = try #require(client.configuration(for: "JZ")?.maxMetaBytes)
        #expect(client.send(type: "pay", prefix: "JZ", meta: Blob(text: String(repeating: "x", count: limit))).code == .metaTooLarge)
        #expect(client.namespace("JZ").send(type: "pay", meta: Blob(text: "small")).isAccepted)
        await client.shutdown()
    }
}
