import ArgumentParser
@testable import hermes
import HermesHarness
import HermesWire
import Testing

/// `hermes keys generate`: what it prints, and that the collector accepts it.
struct KeysGenerateCommandTests {
    static func counting(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0) } }

    @Test func aesGCMPrintsTheCollectorOptionAndTheSDKLineOfOneKey() {
        let text = KeysGenerateCommand.text(.aesGCM, keyID: 3, random: Self.counting)
        #expect(text.contains("collector: --aes-key 3:000102030405060708090a0b0c0d0e0f\n"))
        #expect(
            text.contains(
                "SDK:       wireFormat: .v2(try AESGCMCipher(key: [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f], keyID: 3))"
            ))
    }

    @Test func hpkeGivesTheCollectorThePrivateKeyAndTheAppsThePublicOne() throws {
        let text = KeysGenerateCommand.text(.hpke, keyID: 9, random: Self.counting)
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
        let text = KeysGenerateCommand.text(command.kind, keyID: command.keyID, random: Hex.randomBytes)
        let options = try #require(text.split(separator: "\n").first { $0.hasPrefix("collector:") })
            .dropFirst("collector:".count).split(separator: " ").map(String.init)
        let serve = try #require(
            try HermesCommand.parseAsRoot(
                ["collector", "serve", "--storage", "c.sqlite", "--app-key", "a", "--admin-token", "t"] + options
            ) as? CollectorServeCommand)
        _ = try serve.keys.keyring()
    }

    @Test func aKindIsRequired() {
        #expect(throws: (any Error).self) { try HermesCommand.parseAsRoot(["keys", "generate"]) }
    }
}
