import Foundation
import HermesWire

/// What the simulated app sends in `hermes demo`: the monitoring namespace and two business
/// lines, crashes with stack payloads, lags, boot times, network samples and business events.
enum DemoScenario {
    /// One kind of record and how many to send.
    struct Item {
        var namespace: String
        var type: String
        var count: Int
        /// Bytes of stack payload per record (crashes), 0 for none.
        var payloadBytes: Int = 0
    }

    static let items: [Item] = [
        Item(namespace: "hermes", type: "appCrash", count: 24, payloadBytes: 6_000),
        Item(namespace: "hermes", type: "appLag", count: 400),
        Item(namespace: "hermes", type: "appBoot", count: 12),
        Item(namespace: "hermes", type: "net", count: 900),
        Item(namespace: "hermes", type: "netError", count: 80),
        Item(namespace: "JZ", type: "pay", count: 300),
        Item(namespace: "JZ", type: "view", count: 500),
        Item(namespace: "KX", type: "order", count: 200),
        Item(namespace: "KX", type: "search", count: 350),
    ]

    /// The user the app identifies once a third of its records are sent.
    static let userID = "demo-user-1"

    /// The collector's configuration: every namespace uploads every second; `hermes` records
    /// sessions and `identify` too.
    static var configuration: ConfigurationDocument {
        var hermes = NamespaceConfiguration.hermesDefault
        hermes.periodicTimerSecond = 1
        hermes.monitorList += [MonitorType.sessionStart, MonitorType.sessionEnd, MonitorType.identify].map { MonitorItem(type: $0) }
        return ConfigurationDocument(
            revision: 1,
            namespaces: [
                "hermes": hermes,
                "JZ": business(["pay", "view"], realtime: "pay"),
                "KX": business(["order", "search"], realtime: nil),
            ])
    }

    /// What the app registers locally, so business records are accepted before the first fetch.
    static var localDefaults: [String: NamespaceConfiguration] {
        ["JZ": business(["pay", "view"], realtime: "pay"), "KX": business(["order", "search"], realtime: nil)]
    }

    private static func business(_ types: [String], realtime: String?) -> NamespaceConfiguration {
        NamespaceConfiguration(periodicTimerSecond: 1, monitorList: types.map { MonitorItem(type: $0, isRealtime: $0 == realtime) })
    }

    /// The records in the order the app sends them: the kinds interleaved, as a real app would.
    static func schedule() -> [(item: Item, index: Int)] {
        var queue: [(Item, Int)] = []
        let longest = items.map(\.count).max() ?? 0
        for index in 0..<longest {
            for item in items where index < item.count { queue.append((item, index)) }
        }
        return queue
    }

    static func meta(_ item: Item, _ index: Int, random: inout SplitMix64) -> [String: JSONValue] {
        switch item.type {
        case "appCrash":
            return ["signal": "SIGSEGV", "thread": "main", "CREATE_TIME": .int(1_763_000_000_000 + Int64(index)), "APP_VERSION": "1.1.0"]
        case "appLag":
            return ["duration_ms": .int(Int64(250 + random.next() % 2_000)), "scene": "FeedViewController"]
        case "appBoot":
            return ["cold": .bool(index % 3 == 0), "duration_ms": .int(Int64(400 + random.next() % 900))]
        case "net", "netError":
            return [
                "url": .string("https://api.example.com/v2/items/\(random.next() % 5_000)"),
                "method": "GET", "status": .int(item.type == "net" ? 200 : 503),
                "duration_ms": .int(Int64(random.next() % 900)), "bytes": .int(Int64(random.next() % 40_000)),
            ]
        case "pay":
            return ["amount": .double(Double(random.next() % 100_000) / 100), "currency": "CNY", "channel": "wechat"]
        case "order":
            return ["order_id": .string("KX\(100_000 + index)"), "items": .int(Int64(1 + random.next() % 5))]
        default:
            return ["page": .string("\(item.type)/\(random.next() % 40)"), "stay_ms": .int(Int64(random.next() % 60_000))]
        }
    }

    /// A stack dump of about `bytes` bytes, varied enough to compress like a real one.
    static func stack(bytes: Int, random: inout SplitMix64) -> Data {
        var text = ""
        var frame = 0
        while text.utf8.count < bytes {
            let address = String(0x1_0000_0000 + random.next() % 0xFFFF_FFFF, radix: 16)
            text += "\(frame) DemoApp 0x\(address) FeedViewController.render(_:) + \(random.next() % 900)\n"
            frame += 1
        }
        return Data(text.utf8.prefix(bytes))
    }
}
