import ArgumentParser
import Foundation
@testable import hermes
import HermesWire
import Testing

/// `hermes decode` takes its keys as `collector serve` does.
struct DecodeCommandTests {
    @Test func aV2PacketOpensWithTheCollectorsKeyOption() throws {
        // Given a v2 packet sealed with AES-GCM key 3, written to a file
        let key: [UInt8] = Array(0..<16)
        let packet = Packet(kind: .meta, metaLines: [Array(#"{"REPORT_ID":"r1"}"#.utf8)])
        let body = try WireFormat.v2(try AESGCMCipher(key: key, keyID: 3)).encode(packet)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-decode-\(UUID().uuidString)")
        try Data(body).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        // When decode is given the key as serve takes it
        let command = try #require(
            try HermesCommand.parseAsRoot(["decode", file.path, "--aes-key", "3:000102030405060708090a0b0c0d0e0f"]) as? DecodeCommand
        )
        let decoded = try PacketDecoder(keyring: try command.keys.keyring()).decode(body, kind: nil, version: nil)

        // Then the record comes back, described with its key id
        #expect(decoded.packet.metaLines == packet.metaLines)
        #expect(DecodeCommand.describe(decoded).hasPrefix("version 2, kind meta, cipher "))
        #expect(DecodeCommand.describe(decoded).contains("key id 3"))
    }

    @Test func theRetiredKeyFlagSaysWhatToGiveInstead() {
        #expect {
            _ = try HermesCommand.parseAsRoot(["decode", "body.bin", "--key", "00"])
        } throws: { error in
            HermesCommand.message(for: error)
                == "--key was retired: give the keys as collector serve takes them: --aes-key <key id>:<hex>, --v1-key with --v1-iv, or --hpke-private-key <key id>:<hex>."
        }
    }

    @Test func withoutAKeyItAsksForOne() {
        #expect {
            _ = try HermesCommand.parseAsRoot(["decode", "body.bin"])
        } throws: { error in
            HermesCommand.message(for: error)
                == "Give at least one decryption key: --v1-key with --v1-iv, --aes-key(-file) or --hpke-private-key(-file)."
        }
    }
}
