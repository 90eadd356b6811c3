package import Foundation
package import HermesWire

/// What the simulated app sends in `hermes demo`: the monitoring namespace and two business
/// lines, crashes with stack payloads, lags, boot times, network samples and business events.
package enum DemoScenario {
    /// One kind of record and how many to send.
    package struct Item {
        package var namespace: String
        package var type: String
        package var count: Int
        /// Bytes of stack payload per record (crashes), 0 for none.
        package var payloadBytes: Int = 0
    }

    package static let items: [Item] = [
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
    package static let userID = "demo-user-1"

    /// The collector's configuration: every namespace uploads every second; `hermes` records
    /// sessions and `identify` too.
    package static var configuration: ConfigurationDocument {
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
    package static var localDefaults: [String: NamespaceConfiguration] {
        ["JZ": business(["pay", "view"], realtime: "pay"), "KX": business(["order", "search"], realtime: nil)]
    }

    private static func business(_ types: [String], realtime: String?) -> NamespaceConfiguration {
        NamespaceConfiguration(periodicTimerSecond: 1, monitorList: types.map { MonitorItem(type: $0, isRealtime: $0 == realtime) })
    }

    /// The records in the order the app sends them: the kinds interleaved, as a real app would.
    package static func schedule() -> [(item: Item, index: Int)] {
        var queue: [(Item, Int)] = []
        let longest = items.map(\.count).max() ?? 0
        for index in 0..<longest {
            for item in items where index < item.count { queue.append((item, index)) }
        }
        return queue
    }

    /// What a user typed into the search box of the first `search` event: markup, which the
    /// console must show as text.
    package static let markupQuery = "<script>window.hermesInjected = 1</script>\"><img src=x onerror=\"window.hermesInjected = 2\">"

    /// A record's meta: the fields the SDK's own monitors write for `hermes` types (so the
    /// console's performance page reads them), app-made fields for business types.
    package static func meta(_ item: Item, _ index: Int, random: inout SplitMix64) -> [String: JSONValue] {
        switch item.type {
        case "appCrash":
            // A crash reported by the app's previous version keeps that version (the caller's
            // fields win for appCrash).
            return ["signal": .string(crashKinds[index % crashKinds.count].signal), "APP_VERSION": index % 3 == 0 ? "1.1.0" : "1.2.0"]
        case "appLag":
            return ["durationMs": .int(Int64(250 + random.next() % 2_000)), "thresholdMs": 250, "queue": "com.apple.main-thread"]
        case "appBoot":
            return ["launchMs": .int(Int64(400 + random.next() % 900))]
        case "net", "netError":
            let routes = ["/v2/items/:id", "/v2/feed", "/v2/users/:id/orders"]
            var meta: [String: JSONValue] = [
                "host": "api.example.com", "path": .string(routes[Int(random.next() % 3)]), "method": "GET",
                "durationMs": .int(Int64(20 + random.next() % 900)), "responseBytes": .int(Int64(random.next() % 40_000)), "timing": "sdk",
            ]
            if item.type == "net" { meta["status"] = .int(random.next() % 20 == 0 ? 500 : 200) }
            return meta
        case "pay":
            return ["amount": .double(Double(random.next() % 100_000) / 100), "currency": "CNY", "channel": "wechat"]
        case "order":
            return ["order_id": .string("KX\(100_000 + index)"), "items": .int(Int64(1 + random.next() % 5))]
        case "search":
            return ["query": .string(index == 0 ? markupQuery : "query \(random.next() % 400)"), "results": .int(Int64(random.next() % 50))]
        default:
            return ["page": .string("\(item.type)/\(random.next() % 40)"), "stay_ms": .int(Int64(random.next() % 60_000))]
        }
    }

    /// The kinds of crash the app has: a signal and the app's own frames, innermost first.
    private static let crashKinds: [(signal: String, frames: [String])] = [
        ("SIGSEGV", ["DemoApp.FeedViewController.render(_:)", "DemoApp.FeedViewController.viewDidLayout()"]),
        ("SIGILL", ["DemoApp.Cart.total(of:)", "DemoApp.CheckoutView.refresh()"]),
        ("SIGABRT", ["DemoApp.ImageCache.store(_:for:)", "DemoApp.ImageLoader.finish(_:)"]),
    ]

    /// A crash report's stack of about `bytes` bytes, in the SDK's format (frame, image,
    /// address, function + offset), for the crash kind of record `index`.
    package static func stack(bytes: Int, index: Int, random: inout SplitMix64) -> Data {
        let kind = crashKinds[index % crashKinds.count]
        var text = "Crashed: \(kind.signal) at 0x\(String(random.next() % 0xFFFF, radix: 16)), thread 1\n"
        var frame = 0
        func add(_ image: String, _ function: String) {
            let address = String(0x5555_0000_0000 + random.next() % 0xFFFF_FFFF, radix: 16)
            text += "\(frame)   \(image)  0x\(address)  \(function) + \(random.next() % 900)\n"
            frame += 1
        }
        add("libswiftCore.so", "Swift._assertionFailure(_: Swift.StaticString, _: Swift.String) -> Swift.Never")
        for function in kind.frames { add("DemoApp", function) }
        while text.utf8.count < bytes { add("DemoApp", "DemoApp.RunLoop.step(\(frame))") }
        return Data(text.utf8.prefix(bytes))
    }
}
