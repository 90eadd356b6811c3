import ArgumentParser
import Foundation
import HermesWire

/// `hermes decode <file>`: opens an upload body with the keys a collector would hold (the same
/// options as `collector serve`) and prints what it holds.
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode an upload body: print its header and each record's meta line and payload size."
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case meta, payload

        var packetKind: PacketKind { self == .meta ? .meta : .payload }
    }

    @Argument(help: "The file holding the request body.")
    var file: String

    @Option(help: "The endpoint's packet kind: meta or payload. Needed for v1; v2 says it in its header.")
    var kind: Kind?

    @Option(help: "The packet version, 1 or 2. Told by the magic bytes when omitted.")
    var version: UInt8?

    @OptionGroup(title: "Decryption keys (as for collector serve)")
    var keys: CollectorKeyOptions

    @Option(help: .hidden)
    var key: String?

    func validate() throws {
        guard version.map({ [1, 2].contains($0) }) ?? true else {
            throw ValidationError("--version must be 1 or 2.")
        }
        guard key == nil else {
            throw ValidationError(
                "--key was retired: give the keys as collector serve takes them: --aes-key <key id>:<hex>, --v1-key with --v1-iv, or --hpke-private-key <key id>:<hex>."
            )
        }
        _ = try keys.keyring()
    }

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ValidationError("Cannot read \(file).")
        }
        do {
            let decoder = PacketDecoder(keyring: try keys.keyring())
            print(Self.describe(try decoder.decode([UInt8](data), kind: kind?.packetKind, version: version)))
        } catch let error as HermesWireError {
            FileHandle.standardError.write(Data("error: \(error.code): \(error.message)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// The packet as text: the header line, then one line per record.
    static func describe(_ decoded: DecodedPacket) -> String {
        let packet = decoded.packet
        let payloads = packet.payloads.filter { !$0.isEmpty }
        var lines = [
            "version \(decoded.version), kind \(packet.kind == .meta ? "meta" : "payload"), cipher \(decoded.algorithm), key id \(decoded.keyID)",
            "records \(packet.metaLines.count), payloads \(payloads.count) (\(payloads.reduce(0) { $0 + $1.count }) bytes)",
        ]
        for (index, line) in packet.metaLines.enumerated() {
            var text = "[\(index)] \(String(decoding: line, as: UTF8.self))"
            if index < packet.payloads.count {
                text += packet.payloads[index].isEmpty ? "  (no payload)" : "  (payload \(packet.payloads[index].count) bytes)"
            }
            lines.append(text)
        }
        return lines.joined(separator: "\n")
    }
}
