import ArgumentParser
import FairFuelConfiguration
import FairFuelCore
import FairFuelService
import FairFuelStore

/// `fairfuel store check|stats|prune`: the technician's view of the rolling store.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Check, measure and prune the store.",
        subcommands: [Check.self, Stats.self, Prune.self])

    /// The `[store]` retention of the board profile the service runs with (`$FAIRFUEL_BOARD`, as every
    /// command reads it), with the command line's overrides.
    static func retention(_ options: StoreOptions, budgetBytes: Int64? = nil, maxAgeDays: Int? = nil) throws -> RetentionPolicy {
        let store = try options.board(for: "its [store] retention").store
        return RetentionPolicy(
            diskBudgetBytes: budgetBytes ?? store.diskBudgetBytes, tripPointMaxAgeDays: maxAgeDays ?? store.tripPointMaxAgeDays,
            eventLogMaxRows: store.eventLogMaxRows, diskReserveBytes: store.diskReserveBytes)
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the store's integrity (read-only; the service moves a corrupt store aside at start-up).")

        @Flag(help: "Run PRAGMA integrity_check (slower) instead of quick_check.")
        var full = false
        @OptionGroup var store: StoreOptions

        func run() throws {
            let path = try store.resolvedPath
            let problems: [String]
            do {
                problems = try store.openReadOnly().checkIntegrity(full: full)
            } catch let error as UserFacingError {
                throw error
            } catch {
                throw UserFacingError("cannot check \(path): \(error)")
            }
            guard problems.isEmpty else {
                throw UserFacingError("\(path) is damaged:\n" + problems.joined(separator: "\n"))
            }
            print("\(path): ok (\(full ? "integrity_check" : "quick_check"))")
        }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the store's size, tracks and retention state.")

        @Flag(help: "Print one JSON object.")
        var json = false
        @OptionGroup var store: StoreOptions

        func run() throws {
            let statistics: StoreStatistics
            do {
                statistics = try store.openReadOnly().statistics()
            } catch let error as UserFacingError {
                throw error
            } catch {
                throw UserFacingError("cannot read \(try store.resolvedPath): \(error)")
            }
            let budget = try StoreCommand.retention(store).diskBudgetBytes
            let levels = statistics.sessionsByTrackLevel
            if json {
                var line = JSONLine()
                line.add("database_bytes", statistics.databaseBytes)
                line.add("wal_bytes", statistics.walBytes)
                line.add("budget_bytes", budget)
                line.add("page_size", statistics.pageSizeBytes)
                line.add("pages", statistics.pageCount)
                line.add("free_pages", statistics.freePages)
                line.add("sessions", statistics.sessions)
                line.add("open_sessions", statistics.openSessions)
                line.add("tracks_full", levels[.full, default: 0])
                line.add("tracks_simplified", levels[.simplified, default: 0])
                line.add("tracks_anchors_only", levels[.anchorsOnly, default: 0])
                line.add("track_points", statistics.trackPoints)
                line.add("track_blob_bytes", statistics.trackBlobBytes)
                line.add("events", statistics.events)
                line.add("refuels", statistics.refuels)
                line.add("oldest_full_track_utc", utc(statistics.oldestFullTrackUTCMs))
                print(line.string)
                return
            }
            print("database      \(statistics.databaseBytes) bytes (\(statistics.pageCount) pages of \(statistics.pageSizeBytes), \(statistics.freePages) free)")
            print("wal           \(statistics.walBytes) bytes")
            print("budget        \(budget) bytes")
            print("sessions      \(statistics.sessions) (\(statistics.openSessions) open)")
            print("tracks        \(levels[.full, default: 0]) full, \(levels[.simplified, default: 0]) simplified, \(levels[.anchorsOnly, default: 0]) anchors only")
            print("track points  \(statistics.trackPoints) in \(statistics.trackChunks) chunks, \(statistics.trackBlobBytes) bytes")
            print("oldest full   \(utc(statistics.oldestFullTrackUTCMs) ?? "none")")
            print("events        \(statistics.events)")
            print("refuels       \(statistics.refuels)")
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the retention policy now: thin old tracks, keep the budget, vacuum.",
            discussion: "Summaries, refuels, splits and calibration are never deleted.")

        @Option(help: "Now, in ISO 8601 UTC, for the age limit (default: skip the age limit; the service uses GNSS time).")
        var now: String?
        @Option(help: "Disk budget in bytes (default: the board profile's).")
        var budgetBytes: Int64?
        @Option(help: "Age in days past which full tracks are simplified (default: the board profile's).")
        var maxAgeDays: Int?
        @OptionGroup var store: StoreOptions

        /// The board profile's range for the same setting: a larger age overflows the cutoff's milliseconds.
        static let maxAgeDaysRange = BoardProfile.allowedRange(section: "store", key: "trip_point_max_age_days")!
        /// Down to 1 MiB, below the profile's floor, so that a technician can try a squeeze on a copy; up to the profile's ceiling.
        static let budgetBytesRange = (Int64(1) << 20)...BoardProfile.allowedRange(section: "store", key: "disk_budget_bytes")!.upperBound

        func validate() throws {
            if let budgetBytes, !Self.budgetBytesRange.contains(budgetBytes) {
                throw ValidationError(
                    "--budget-bytes must be \(Self.budgetBytesRange.lowerBound)...\(Self.budgetBytesRange.upperBound) bytes, not \(budgetBytes)")
            }
            if let maxAgeDays, !Self.maxAgeDaysRange.contains(Int64(maxAgeDays)) {
                throw ValidationError(
                    "--max-age-days must be \(Self.maxAgeDaysRange.lowerBound)...\(Self.maxAgeDaysRange.upperBound) days "
                        + "(as the board profile's store.trip_point_max_age_days), not \(maxAgeDays)")
            }
        }

        func run() throws {
            var nowMs: Int64?
            if let now {
                do { nowMs = try ISO8601.parse(now).millisecondsSinceEpoch } catch { throw ValidationError("--now: \(error)") }
            }
            try store.requireExisting()
            let configuration = StoreConfiguration(retention: try StoreCommand.retention(store, budgetBytes: budgetBytes, maxAgeDays: maxAgeDays))
            let report: RetentionReport
            let path = try store.resolvedPath
            let files = StoreFiles(path: path)
            do {
                let db = try TripStore(path: path, configuration: configuration)
                report = try db.enforceRetention(nowUTCMs: nowMs)
                // The vacuum's pages sit in the WAL until a checkpoint: measure after one that empties it,
                // or a store that shrank would read as grown.
                try? db.checkpointEmptyingTheWAL()
            } catch {
                throw UserFacingError("cannot prune \(path): \(error)")
            }
            let database = files.databaseBytes ?? 0
            let wal = files.walBytes ?? 0
            print("\(report.bytesOnDiskBefore) -> \(files.bytesOnDisk) bytes on disk after the checkpoint "
                + "(database \(database), WAL \(wal)); "
                + "\(report.sessionsSimplifiedForAge) track(s) simplified for age, \(report.sessionsSimplifiedForBudget) for the budget, "
                + "\(report.sessionsReducedToAnchors) reduced to anchors; \(report.pointsRemoved) points removed, "
                + "\(report.eventsDeleted) event(s) dropped, \(report.runsDeleted) empty run(s) dropped, \(report.pagesVacuumed) pages vacuumed")
            if report.overBudget { print("still over budget: only summaries are left, and they are kept") }
            store.control.tellService()
        }
    }
}
