import ArgumentParser
import HermesHarness
import Foundation
import HermesWire

/// `hermes decode <file>`: opens an upload body with the given keys and prints what it holds.
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

    @Option(help: "The symmetric key in hex: AES-128-CBC with --iv (v1), AES-GCM otherwise (v2).")
    var key: String?

    @Option(help: "The v1 IV in hex (32 digits).")
    var iv: String?

    @Option(name: .customLong("key-id"), help: "The v2 key id. Read from the packet's header when omitted.")
    var keyID: UInt32?

    @Option(name: .customLong("hpke-private-key"), help: "The collector's X25519 private key in hex (64 digits), for HPKE packets.")
    var hpkePrivateKey: String?

    func validate() throws {
        guard version.map({ [1, 2].contains($0) }) ?? true else {
            throw ValidationError("--version must be 1 or 2.")
        }
        guard key != nil || hpkePrivateKey != nil else {
            throw ValidationError("Give --key (with --iv for v1) or --hpke-private-key.")
        }
        guard iv == nil || key != nil else {
            throw ValidationError("--iv needs --key.")
        }
    }

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ValidationError("Cannot read \(file).")
        }
        let body = [UInt8](data)
        do {
            let decoder = PacketDecoder(keyring: try keyring(keyID: keyID ?? Self.headerKeyID(body)))
            print(Self.describe(try decoder.decode(body, kind: kind?.packetKind, version: version)))
        } catch {
            FileHandle.standardError.write(Data("error: \(error.code): \(error.message)\n".utf8))
            throw ExitCode.failure
        }
    }

    private func keyring(keyID: UInt32) throws(HermesWireError) -> Keyring {
        var ciphers: [any PacketCipher] = []
        if let key {
            let keyBytes = try Self.bytes(key, "--key")
            if let iv {
                ciphers.append(try AESCBCCipher(key: keyBytes, iv: try Self.bytes(iv, "--iv")))
            } else {
                ciphers.append(try AESGCMCipher(key: keyBytes, keyID: keyID))
            }
        }
        if let hpkePrivateKey {
            ciphers.append(try HPKECipher(privateRawKey: try Self.bytes(hpkePrivateKey, "--hpke-private-key"), keyID: keyID))
        }
        return Keyring(ciphers)
    }

    private static func bytes(_ hex: String, _ name: String) throws(HermesWireError) -> [UInt8] {
        guard let bytes = Hex.bytes(hex) else { throw HermesWireError(.invalidKey, "\(name) is not hexadecimal") }
        return bytes
    }

    /// The key id of a v2 header (bytes 8..<12), or 0.
    private static func headerKeyID(_ body: [UInt8]) -> UInt32 {
        guard PacketDecoder.version(of: body) == 2, body.count >= 12 else { return 0 }
        return body[8..<12].reduce(0) { $0 << 8 | UInt32($1) }
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
