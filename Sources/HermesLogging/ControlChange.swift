/// What a live change of the controls does at once, with the database logger's semantics
/// (the setters of CocoaLumberjack's `DDAbstractDatabaseLogger`). A pure decision; ``LogPersister``
/// carries it out.
struct ControlChange: Sendable, Equatable {
    /// What happens to a timer.
    enum TimerAction: Sendable, Equatable {
        /// Left as it is.
        case keep
        /// Started, or restarted with the new interval.
        case restart
        /// Stopped.
        case stop
    }

    /// Save the buffer now: the threshold was lowered to at most the buffered count.
    var saveNow = false
    /// Delete expired entries now: `maxAge` was lowered or turned on.
    var deleteNow = false
    var saveTimer = TimerAction.keep
    var deleteTimer = TimerAction.keep

    /// - Parameters:
    ///   - old: the controls in force.
    ///   - new: the controls being set.
    ///   - unsaved: entries buffered now.
    init(from old: HermesLogHandler.Controls, to new: HermesLogHandler.Controls, unsaved: Int) {
        if new.saveThreshold != old.saveThreshold, new.savesAtThreshold, unsaved >= new.saveThreshold {
            saveNow = true
        }
        if new.saveInterval != old.saveInterval {
            saveTimer = new.savesPeriodically ? .restart : .stop
        }
        if new.maxAge != old.maxAge {
            if old.deletes {
                if !new.deletes {
                    deleteTimer = .stop
                } else if new.maxAge < old.maxAge {
                    deleteNow = true
                    deleteTimer = .restart
                }
                // Raised: nothing at once; the next deletion uses the new age.
            } else if new.deletes {
                deleteNow = true
                deleteTimer = .restart
            }
        }
        if new.deleteInterval != old.deleteInterval, deleteTimer == .keep {
            deleteTimer = new.deletesPeriodically ? .restart : .stop
        }
        if deleteTimer == .restart, !new.deletesPeriodically {
            deleteTimer = .stop
        }
    }
}
