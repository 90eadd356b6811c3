import ArgumentParser
import Foundation
@testable import hermes
import HermesCollector
import HermesHarness
import HermesWire
import Testing

/// `hermes keys generate`: what it prints, and that the collector accepts it.
struct KeysGenerateCommandTests {
    static func counting(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0) } }

    @Test func aesGCMPrintsTheCollectorOptionAndTheSDKLineOfOneKey() {
        let text = KeysGenerateCommand.material(.aesGCM, keyID: 3, random: Self.counting).text
        #expect(text.contains("collector: --aes-key 3:000102030405060708090a0b0c0d0e0f\n"))
        #expect(
            text.contains(
                "SDK:       wireFormat: .v2(try AESGCMCipher(key: [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f], keyID: 3))"
            ))
    }

    @Test func hpkeGivesTheCollectorThePrivateKeyAndTheAppsThePublicOne() throws {
        let text = KeysGenerateCommand.material(.hpke, keyID: 9, random: Self.counting).text
        let entry = "9:" + Hex.string(Self.counting(32))
        #expect(text.contains("collector: --hpke-private-key \(entry)\n"))
        // The public key printed for apps is the one the collector's private key opens.
        let collector = try HPKECipher(privateRawKey: Self.counting(32), keyID: 9)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("SDK:") })
        let bytes = line.split(separator: "[")[1].split(separator: "]")[0].split(separator: ", ").compactMap { UInt8($0.dropFirst(2), radix: 16) }
        let app = try HPKECipher(recipientRawKey: bytes, keyID: 9)
        let sealed = try app.seal(Array("hello".utf8), authenticating: [1])
        #expect(try collector.open(sealed, authenticating: [1]) == Array("hello".utf8))
    }

    @Test(arguments: [["--hpke"], ["--aes-gcm"], ["--v1"]])
    func everyKindParsesAndPrintsWhatServeAccepts(flag: [String]) throws {
        let command = try #require(try HermesCommand.parseAsRoot(["keys", "generate"] + flag) as? KeysGenerateCommand)
        let text = KeysGenerateCommand.material(command.kind, keyID: command.keyID, random: Hex.randomBytes).text
        let options = try #require(text.split(separator: "\n").first { $0.hasPrefix("collector:") })
            .dropFirst("collector:".count).split(separator: " ").map(String.init)
        let serve = try #require(
            try HermesCommand.parseAsRoot(
                ["collector", "serve", "--storage", "c.sqlite", "--app-key", "a", "--admin-token", "t"] + options
            ) as? CollectorServeCommand)
        _ = try serve.keys.keyring()
    }

    @Test(arguments: [["--hpke"], ["--aes-gcm"]])
    func anOutputFileIsAKeyFileTheCollectorReadsAsItIs(flag: [String]) throws {
        // Given a key written with --output
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-key-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let command = try #require(try HermesCommand.parseAsRoot(["keys", "generate", "--output", file] + flag) as? KeysGenerateCommand)
        try command.run()
        // Then only its owner may read it, and serve takes the printed option as it is
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
        let option = command.kind == .hpke ? "--hpke-private-key-file" : "--aes-key-file"
        let serve = try #require(
            try HermesCommand.parseAsRoot(["collector", "serve", "--storage", "c.sqlite", "--app-key", "a", "--admin-token", "t", option, file])
                as? CollectorServeCommand)
        #expect(try serve.keys.keyring() != nil)
        // And a second run never overwrites it
        #expect(throws: (any Error).self) { try command.run() }
    }

    @Test func aTokenFileIsAnAppKeyFileTheCollectorReads() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hermes-token-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let command = try #require(try HermesCommand.parseAsRoot(["keys", "generate", "--token", "--output", file]) as? KeysGenerateCommand)
        try command.run()
        let token = try SecretFile.read(file, for: "--app-key-file")
        #expect(token.count == 64 && Hex.bytes(token) != nil)
        let printed = KeysGenerateCommand.material(.token, keyID: 1, random: Self.counting).text(writtenTo: file)
        #expect(printed.contains("collector: --app-key-file \(file)\n"))
    }

    @Test func v1HasNoKeyFile() {
        #expect {
            _ = try HermesCommand.parseAsRoot(["keys", "generate", "--v1", "--output", "/tmp/x"])
        } throws: { error in
            HermesCommand.message(for: error) == "--output does not apply to --v1: the collector takes the key and IV as --v1-key and --v1-iv."
        }
    }

    @Test func aKindIsRequired() {
        #expect(throws: (any Error).self) { try HermesCommand.parseAsRoot(["keys", "generate"]) }
    }
}
