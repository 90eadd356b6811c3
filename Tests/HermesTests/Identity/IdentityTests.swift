import Foundation
@testable import Hermes
import HermesWire
import Testing

/// `USER_ID`, `ANON_ID` and `SESSION_ID` in every record; `identify` and `reset`.
struct IdentityTests {
    @Test func everyStoredRecordCarriesTheIdentityFields() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        client.send(type: "appLag", meta: ["before": true])
        client.identify(userID: "u-1")
        client.send(type: "appLag", meta: ["after": true])
        client.send(type: "pay", prefix: "JZ", meta: ["amount": 3])
        try await client.flush()
        await client.shutdown()

        let metas = try harness.metas("meta")
        #expect(metas.count == 3)
        #expect(metas.map { $0["ANON_ID"] } == Array(repeating: .string(client.anonymousID), count: 3))
        #expect(metas.map { $0["SESSION_ID"] } == Array(repeating: .string(client.sessionID), count: 3))
        #expect(metas.map { $0["USER_ID"] } == [.null, "u-1", "u-1"])
        #expect(UUID(uuidString: client.anonymousID) != nil)
    }

    @Test func commonFieldsAreWhatTheNextRecordCarriesBesidesItsOwnFields() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        let before = client.commonFields
        client.identify(userID: "u-7")
        let common = client.commonFields
        client.send(type: "pay", prefix: "JZ", meta: ["amount": 3])
        try await client.flush()
        await client.shutdown()

        // The stored record holds every common field with the value read, plus its own fields and the caller's
        let meta = try #require(try harness.metas("meta").first)
        #expect(common.allSatisfy { meta[$0.key] == $0.value })
        #expect(
            Set(meta.objectValue?.keys ?? [:].keys).subtracting(common.keys) == [
                "REPORT_ID", "CREATE_TIME", "MONITOR_TYPE", "IS_BIZ", "NAMESPACE", "amount",
            ])
        #expect(common["USER_ID"] == "u-7" && before["USER_ID"] != "u-7" && common["DEVICE_ID"] == before["DEVICE_ID"])
    }

    @Test func aCallerCannotOverwriteTheIdentityFields() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        client.identify(userID: "real")
        client.send(type: "pay", prefix: "JZ", meta: ["USER_ID": "forged", "ANON_ID": 1, "SESSION_ID": .null])
        try await client.flush()
        await client.shutdown()

        let meta = try #require(try harness.metas("meta").first)
        #expect(meta["USER_ID"] == "real")
        #expect(meta["ANON_ID"] == .string(client.anonymousID))
        #expect(meta["SESSION_ID"] == .string(client.sessionID))
    }

    @Test func resetMakesANewAnonymousIDAndSessionAndClearsTheUser() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        client.start()
        client.identify(userID: "u-1")
        let (anonymous, session) = (client.anonymousID, client.sessionID)
        client.send(type: "appLag", meta: ["n": 1])

        client.reset()
        client.send(type: "appLag", meta: ["n": 2])
        try await client.flush()
        await client.shutdown()

        #expect(client.anonymousID != anonymous && client.sessionID != session && client.userID == nil)
        let metas = try harness.metas("meta")
        #expect(metas.map { $0["MONITOR_TYPE"] } == ["sessionStart", "appLag", "sessionEnd", "sessionStart", "appLag", "sessionEnd"])
        // the ended session's record carries the user and ids it had; the new session's the new ones
        #expect(metas[2]["USER_ID"] == "u-1" && metas[2]["SESSION_ID"] == .string(session) && metas[2]["ANON_ID"] == .string(anonymous))
        #expect(metas[3]["USER_ID"] == .null && metas[3]["SESSION_ID"] == .string(client.sessionID))
        #expect(metas[4]["USER_ID"] == .null && metas[4]["ANON_ID"] == .string(client.anonymousID))
        #expect(metas[3]["reason"] == "reset")
    }

    @Test func identitySurvivesARestartOnTheSameFolder() async throws {
        let harness = Harness()
        let first = try harness.identityClient()
        first.identify(userID: "u-7")
        let (anonymous, session) = (first.anonymousID, first.sessionID)
        await first.shutdown()

        let second = try harness.identityClient()
        second.send(type: "appLag", meta: ["n": 1])
        try await second.flush()
        await second.shutdown()

        #expect(second.anonymousID == anonymous && second.userID == "u-7")
        #expect(second.sessionID != session)
        let meta = try #require(try harness.metas("meta").first)
        #expect(meta["ANON_ID"] == .string(anonymous) && meta["USER_ID"] == "u-7")
    }

    @Test func traitsBecomeAnIdentifyRecordOfTheNewUser() async throws {
        let harness = Harness()
        let client = try harness.identityClient()
        let outcome = client.identify(userID: "u-9", traits: ["plan": "pro"])
        #expect(outcome?.isAccepted == true)
        #expect(client.identify(userID: "u-9") == nil)
        try await client.flush()
        await client.shutdown()

        let metas = try harness.metas("meta")
        #expect(metas.count == 1)
        #expect(metas.first?["MONITOR_TYPE"] == "identify" && metas.first?["plan"] == "pro" && metas.first?["USER_ID"] == "u-9")
    }
}
