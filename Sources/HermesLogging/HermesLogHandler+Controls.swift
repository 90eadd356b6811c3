extension HermesLogHandler {
    /// The database logger's controls (CocoaLumberjack's `DDAbstractDatabaseLogger`): when
    /// buffered entries are saved and when saved entries expire. Zero (or ``Duration/zero``)
    /// turns a control off; turning off both `saveThreshold` and `saveInterval` leaves entries
    /// in memory until ``LogPersister/save()`` or shutdown.
    ///
    /// Change them live with ``LogPersister/update(_:)``:
    ///
    /// ```swift
    /// var controls = persister.controls
    /// controls.maxAge = .seconds(86_400)   // lowered: expired entries are deleted at once
    /// persister.update(controls)
    /// ```
    public struct Controls: Sendable, Hashable {
        /// Buffered entries that trigger a save. Default 500; 0 turns it off.
        public var saveThreshold: Int
        /// The longest an entry waits in memory: a save runs this long after the first unsaved
        /// entry arrived. Default 60 s; zero turns it off.
        public var saveInterval: Duration
        /// How old a saved entry may grow before it is deleted. Default 7 days; zero turns
        /// deletion off.
        public var maxAge: Duration
        /// How often entries older than ``maxAge`` are deleted. Default 5 minutes; zero turns
        /// the periodic deletion off.
        public var deleteInterval: Duration
        /// Also delete expired entries after every save. Default off.
        public var deleteOnEverySave: Bool

        /// Creates controls; every value defaults to the database logger's default.
        public init(
            saveThreshold: Int = 500,
            saveInterval: Duration = .seconds(60),
            maxAge: Duration = .seconds(7 * 86_400),
            deleteInterval: Duration = .seconds(300),
            deleteOnEverySave: Bool = false
        ) {
            self.saveThreshold = saveThreshold
            self.saveInterval = saveInterval
            self.maxAge = maxAge
            self.deleteInterval = deleteInterval
            self.deleteOnEverySave = deleteOnEverySave
        }

        /// The defaults: save at 500 entries or after 60 s, keep 7 days, delete every 5 minutes.
        public static let `default` = Controls()

        var savesAtThreshold: Bool { saveThreshold > 0 }
        var savesPeriodically: Bool { saveInterval > .zero }
        var deletes: Bool { maxAge > .zero }
        var deletesPeriodically: Bool { deletes && deleteInterval > .zero }
    }
}
