package import HermesWire

/// Deterministic, realistic record metas for benchmarks: the demo's mix of crash, lag, network
/// and business records with the common fields, about 300 bytes each.
package enum SampleRecords {
    /// Meta lines adding up to at least `totalBytes`.
    package static func metaLines(totalBytes: Int) -> [[UInt8]] {
        var random = SplitMix64(seed: 42)
        var lines: [[UInt8]] = []
        var total = 0
        var index = 0
        while total < totalBytes {
            let line = try! meta(index: index, random: &random).jsonBytes()
            total += line.count + 1
            lines.append(line)
            index += 1
        }
        return lines
    }

    package static let types = ["appLag", "net", "net", "netError", "appBoot", "JZ-pay", "JZ-view", "appCrash"]

    package static func meta(index: Int, random: inout SplitMix64) -> JSONValue {
        let type = types[Int(random.next() % UInt64(types.count))]
        var meta: [String: JSONValue] = [
            RecordField.reportID: .string(uuid(&random)),
            RecordField.createTime: .int(1_763_000_000_000 + Int64(index) * 137),
            RecordField.monitorType: .string(type),
            RecordField.isBusiness: .bool(type.hasPrefix("JZ-")),
            RecordField.namespace: .string(type.hasPrefix("JZ-") ? "JZ" : "hermes"),
            RecordField.appName: "Demo",
            RecordField.appVersion: "1.2.0",
            RecordField.appBuild: "42",
            RecordField.deviceID: "6F9619FF-8B86-D011-B42D-00C04FC964FF",
            RecordField.osName: "iOS",
            RecordField.osVersion: "18.1",
            RecordField.deviceModel: "iPhone16,2",
            RecordField.sdkVersion: "0.1.0",
        ]
        meta.merge(fields(for: type, random: &random)) { $1 }
        return .object(meta)
    }

    /// The fields a record of `type` (`appLag`, `net`, `JZ-pay`, …) adds to the common ones.
    package static func fields(for type: String, random: inout SplitMix64) -> [String: JSONValue] {
        switch type {
        case "net", "netError":
            [
                "url": .string("https://api.example.com/v2/items/\(random.next() % 5000)"),
                "status": .int(type == "net" ? 200 : 503),
                "duration_ms": .int(Int64(random.next() % 900)),
            ]
        case "appLag":
            ["duration_ms": .int(Int64(250 + random.next() % 2000)), "scene": "FeedViewController"]
        case "JZ-pay":
            ["amount": .double(Double(random.next() % 100_000) / 100), "currency": "CNY"]
        default:
            ["step": .int(Int64(random.next() % 8))]
        }
    }

    /// A symbolicated stack of about `frames` lines, as a crash report's payload.
    package static func crashStack(frames: Int = 40, random: inout SplitMix64) -> [UInt8] {
        let symbols = [
            "FeedViewController.render()", "FeedCell.configure(with:)", "ImageLoader.decode(_:)",
            "UIView.layoutSubviews()", "CFRunLoopRun", "main",
        ]
        var text = "Thread 0 Crashed:\n"
        for frame in 0..<frames {
            let address = String(0x1_02a3_0000 + random.next() % 0xF_FFFF, radix: 16)
            text += "\(frame)  Demo  0x0000000\(address) \(symbols[Int(random.next() % UInt64(symbols.count))]) + \(random.next() % 900)\n"
        }
        return Array(text.utf8)
    }

    private static func uuid(_ random: inout SplitMix64) -> String {
        let hex = Array("0123456789ABCDEF")
        var text = ""
        for position in 0..<32 {
            if [8, 12, 16, 20].contains(position) { text.append("-") }
            text.append(hex[Int(random.next() % 16)])
        }
        return text
    }
}
