public import HermesWire

extension HermesClient {
    /// The installation's anonymous id (`ANON_ID`): made once, kept across launches, replaced by
    /// ``reset()``.
    public var anonymousID: String {
        profiles.profile.settings.identity.anonymousID
    }

    /// The user set by ``identify(userID:traits:)`` (`USER_ID`), kept across launches; `nil`
    /// for an anonymous user.
    public var userID: String? {
        profiles.profile.settings.identity.userID
    }

    /// The common fields Hermes adds to every record sent now (the design's `getCommon`):
    /// `APP_NAME`, `APP_VERSION`, `APP_BUILD`, `DEVICE_ID`, `OS_NAME`, `OS_VERSION`,
    /// `DEVICE_MODEL`, `SDK_VERSION`, `ANON_ID`, `SESSION_ID`, and `USER_ID` once a user is
    /// identified. Read-only: they change with ``identify(userID:traits:)``, ``reset()`` and a new
    /// session. The fields each record gets for itself (`REPORT_ID`, `CREATE_TIME`,
    /// `MONITOR_TYPE`, `IS_BIZ`, `NAMESPACE`) are not in it, nor are global properties.
    ///
    /// ```swift
    /// let device = client.commonFields["DEVICE_ID"]?.stringValue
    /// ```
    public var commonFields: [String: JSONValue] {
        profiles.profile.commonFields
    }

    /// Names the user: later records carry `USER_ID` (and keep `ANON_ID`, which links what the
    /// user did before logging in). The user is kept across launches until ``reset()``.
    ///
    /// Non-empty `traits` are sent as a record of type `identify` to the `hermes` namespace
    /// (when its `monitorList` has it), carrying the new `USER_ID`.
    ///
    /// ```swift
    /// client.identify(userID: "u-42", traits: ["plan": "pro"])
    /// ```
    /// - Returns: the `identify` record's outcome, or `nil` when none was sent (no traits, or
    ///   the type is not monitored).
    @discardableResult
    public func identify(userID: String, traits: [String: JSONValue] = [:]) -> SendOutcome? {
        profiles.update { $0.identity.userID = userID }
        guard !traits.isEmpty,
            configurationService.configuration(for: ConfigurationDocument.hermesNamespace)?.monitorItem(for: MonitorType.identify) != nil
        else { return nil }
        return send(type: MonitorType.identify, meta: traits)
    }

    /// Logs the user out: clears `USER_ID`, makes a new `ANON_ID`, and ends the session and
    /// starts a new one (with their `sessionEnd` / `sessionStart` records). Consent, global
    /// properties and hooks stay.
    public func reset() {
        let anonymousID = RecordIdentity.newID()
        let transitions = sessions.step { tracker, now in tracker.restart(id: RecordIdentity.newID(), now: now) }
        apply(transitions, reason: .reset) { identity in
            identity.anonymousID = anonymousID
            identity.userID = nil
        }
    }

    /// Adds global properties: every later record of `namespace` (or, when `nil`, of every
    /// namespace) carries them, under its own meta: a key the caller sends wins, and a
    /// namespace's property wins over the client's. Names of common fields are ignored (the
    /// common fields never move). They last until ``unregister(_:namespace:)`` or the end of
    /// the process.
    ///
    /// The common fields and properties are encoded once, here, not on each `send`.
    /// - Throws: ``HermesError/Code/invalidMeta`` for a value that cannot be written as JSON;
    ///   nothing is registered then.
    public func register(_ properties: [String: JSONValue], namespace: String? = nil) throws(HermesError) {
        do {
            _ = try JSONValue.object(properties).jsonBytes()
        } catch {
            throw HermesError(.invalidMeta, "global properties cannot be written as JSON: \(error.message)")
        }
        profiles.update { settings in
            if let namespace {
                settings.namespaceProperties[namespace, default: [:]].merge(properties) { _, new in new }
            } else {
                settings.properties.merge(properties) { _, new in new }
            }
        }
    }

    /// Removes global properties by name from `namespace` (or, when `nil`, from the client's).
    public func unregister(_ keys: [String], namespace: String? = nil) {
        profiles.update { settings in
            for key in keys {
                if let namespace {
                    settings.namespaceProperties[namespace]?[key] = nil
                } else {
                    settings.properties[key] = nil
                }
            }
            if let namespace, settings.namespaceProperties[namespace]?.isEmpty == true {
                settings.namespaceProperties[namespace] = nil
            }
        }
    }
}
