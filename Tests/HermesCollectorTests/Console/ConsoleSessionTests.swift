import HermesCollector
import HermesWire
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

struct ConsoleSessionTests {
    static let guarded: [(HTTPRequest.Method, String)] = [
        (.get, "/console/api/session"), (.get, "/console/api/records"), (.get, "/console/api/records/1/1"),
        (.get, "/console/api/records/1/1/payload"), (.get, "/console/api/tail"), (.get, "/console/api/overview"),
        (.get, "/console/api/performance"), (.get, "/console/api/namespaces"), (.get, "/console/api/namespaces/shop/history"),
        (.post, "/console/api/namespaces/shop/preview"), (.put, "/console/api/namespaces/shop"), (.post, "/console/api/changes/1/revert"),
        (.get, "/console/api/users"), (.post, "/console/api/users"), (.delete, "/console/api/users/ada"), (.post, "/console/api/sign-out"),
    ]

    @Test func everyConsoleEndpointRefusesWithoutASession() async throws {
        let fixture = try CollectorFixture.console()
        try await fixture.test { client in
            for (method, uri) in Self.guarded {
                let response = try await client.console(uri, method: method, body: method == .get ? nil : [:])
                #expect(response.status == .unauthorized, "\(method) \(uri)")
                #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            }
            // The page itself holds no data and loads without a session, with the strict policy.
            let page = try await client.console("/console")
            #expect(page.status == .ok)
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            #expect(page.text.contains("/console/console.js"))
            #expect(!page.text.contains("<script>"))
        }
    }

    @Test func theFirstAdminNeedsTheAdminTokenAndIsMadeOnce() async throws {
        let fixture = try CollectorFixture.console()
        try await fixture.test { client in
            #expect(try await client.console("/console/api/setup").json() == ["needed": true])
            let wrong = try await client.console(
                "/console/api/setup", method: .post, body: ["token": "nope", "name": "ada", "password": .string(ConsoleTestSession.password)])
            #expect(wrong.status == .unauthorized)
            let made = try await client.console(
                "/console/api/setup", method: .post,
                body: ["token": .string(CollectorFixture.adminToken), "name": "ada", "password": .string(ConsoleTestSession.password)])
            #expect(made.status == .ok)
            let cookie = try #require(made.headers[.setCookie])
            #expect(cookie.hasPrefix("hermes_session="))
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/console"] { #expect(cookie.contains(attribute)) }
            #expect(!cookie.contains("Secure"))
            let again = try await client.console(
                "/console/api/setup", method: .post,
                body: ["token": .string(CollectorFixture.adminToken), "name": "eve", "password": .string(ConsoleTestSession.password)])
            #expect(again.status == .forbidden)
            #expect(try await client.console("/console/api/setup").json() == ["needed": false])
        }
        #expect(try await fixture.storage.consoleUsers().map(\.name) == ["ada"])
        #expect(try await fixture.storage.consoleUser(named: "ada")?.passwordHash.hasPrefix("$2") == true)
    }

    @Test func failedSignInsAreLimitedPerMinute() async throws {
        var fixture = try CollectorFixture.console()
        fixture.configuration.console.signInAttemptsPerMinute = 3
        fixture.configuration.wallClock = { 600_000 }
        try await fixture.test { [storage = fixture.storage] client in
            _ = try await ConsoleTestSession.signIn(client, storage: storage)
            for _ in 0..<3 {
                let wrong = try await client.console("/console/api/sign-in", method: .post, body: ["name": "ada", "password": "wrong password!"])
                #expect(wrong.status == .unauthorized)
            }
            let limited = try await client.console(
                "/console/api/sign-in", method: .post, body: ["name": "ada", "password": .string(ConsoleTestSession.password)])
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "60")
        }
    }

    @Test func stateChangesNeedTheSessionsCSRFToken() async throws {
        let fixture = try CollectorFixture.console()
        try await fixture.test { client in
            let session = try await ConsoleTestSession.signIn(client, storage: fixture.storage)
            let body: JSONValue = ["configuration": ["maxItem": 50], "etag": "absent"]
            let without = try await client.console("/console/api/namespaces/shop", method: .put, session: session, csrf: false, body: body)
            #expect(without.status == .forbidden)
            // The same token but its last digit
            var forged = session.csrf
            let last = forged.removeLast()
            forged += last == "0" ? "1" : "0"
            let wrong = try await client.console(
                "/console/api/namespaces/shop", method: .put, session: session, csrf: false, body: body, headers: [.csrfToken: forged])
            #expect(wrong.status == .forbidden)
            let with = try await client.console("/console/api/namespaces/shop", method: .put, session: session, body: body)
            #expect(with.status == .ok)
        }
        #expect(try await fixture.storage.loadConfiguration()?.namespaces["shop"]?.maxItem == 50)
    }

    @Test func aViewerReadsButCannotEdit() async throws {
        let fixture = try CollectorFixture.console()
        try await fixture.test { client in
            let viewer = try await ConsoleTestSession.signIn(client, storage: fixture.storage, name: "vic", role: .viewer)
            #expect(try await client.console("/console/api/namespaces", session: viewer).status == .ok)
            let edit = try await client.console(
                "/console/api/namespaces/shop", method: .put, session: viewer, body: ["configuration": ["maxItem": 5], "etag": "absent"])
            #expect(edit.status == .forbidden)
            #expect(try await client.console("/console/api/users", session: viewer).status == .forbidden)
        }
        #expect(try await fixture.storage.loadConfiguration() == nil)
    }

    @Test func signingOutEndsTheSession() async throws {
        let fixture = try CollectorFixture.console()
        try await fixture.test { client in
            let session = try await ConsoleTestSession.signIn(client, storage: fixture.storage)
            #expect(try await client.console("/console/api/session", session: session).json()["user"] == "ada")
            let out = try await client.console("/console/api/sign-out", method: .post, session: session)
            #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await client.console("/console/api/session", session: session).status == .unauthorized)
        }
    }

    @Test func theCookieIsSecureBehindATLSProxy() async throws {
        let fixture = try CollectorFixture.console()
        try await fixture.test { client in
            let hash = try await PasswordHasher.hash(ConsoleTestSession.password, cost: 4)
            try await fixture.storage.saveConsoleUser(ConsoleUser(name: "ada", role: .admin, passwordHash: hash, createdAt: 0))
            let response = try await client.console(
                "/console/api/sign-in", method: .post, body: ["name": "ada", "password": .string(ConsoleTestSession.password)],
                headers: [HTTPField.Name("X-Forwarded-Proto")!: "https"])
            #expect(response.headers[.setCookie]?.hasSuffix("; Secure") == true)
        }
    }

    @Test func aRemovedUsersSessionsEnd() async throws {
        let fixture = try CollectorFixture.console()
        try await fixture.test { client in
            let admin = try await ConsoleTestSession.signIn(client, storage: fixture.storage)
            let editor = try await ConsoleTestSession.signIn(client, storage: fixture.storage, name: "ed", role: .editor)
            #expect(try await client.console("/console/api/users/ed", method: .delete, session: admin).status == .ok)
            #expect(try await client.console("/console/api/session", session: editor).status == .unauthorized)
            #expect(try await client.console("/console/api/users/ada", method: .delete, session: admin).status == .forbidden)
        }
    }
}
