import Foundation
import GRDB

/// One history file, opened safely: a file that is not a LayoutBench history is refused
/// before anything is written to it, a newer schema is refused with both versions named,
/// and every SQLite failure becomes a ``HistoryError`` naming the file.
///
/// The file is in WAL mode with a busy timeout, and every write is one `BEGIN IMMEDIATE`
/// transaction: several processes (a merge job, a local run) record into one file at once,
/// each waiting its turn, and a process killed mid-record leaves no trace of that record.
public final class HistoryDatabase: Sendable {
    /// The path the file was opened by.
    public let path: String
    let queue: DatabaseQueue

    /// How long a writer waits for another process's transaction before giving up.
    static let busyTimeout: TimeInterval = 60

    /// Whether opening may create the file.
    public enum Mode: Sendable {
        /// Create the file (and its folder) when missing: the recording commands.
        case createIfMissing
        /// The file must exist: the commands that only read the history.
        case existing
    }

    private init(path: String, queue: DatabaseQueue) {
        self.path = path
        self.queue = queue
    }

    /// Opens (and, with `.createIfMissing`, creates) the history at `path`, migrating an
    /// older schema to this build's.
    public static func open(_ path: String, mode: Mode) throws(HistoryError) -> HistoryDatabase {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue { throw .notADatabase(path: path, reason: "it is a folder") }
        if exists {
            try inspect(path)
        } else {
            guard mode == .createIfMissing else { throw .missing(path: path) }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw .database(path: path, reason: "cannot create the folder \(folder.path): \(error.localizedDescription)")
            }
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.journalMode = .wal
        configuration.label = "layoutbench.history"
        // Two processes creating one new file at once race for the switch to WAL and for the
        // first migration. SQLite answers some of those lock requests with BUSY at once,
        // without its busy handler (a lock upgrade that could deadlock, the journal-mode
        // change), so the open is retried, backing off, within the same busy timeout.
        let deadline = Date().addingTimeInterval(busyTimeout)
        var pause: TimeInterval = 0.005
        while true {
            do {
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                let database = HistoryDatabase(path: path, queue: queue)
                try database.migrate()
                return database
            } catch let error as HistoryError {
                guard error.isLockContention, Date().addingTimeInterval(pause) < deadline else { throw error }
            } catch {
                let described = describe(error, path: path)
                guard described.isLockContention, Date().addingTimeInterval(pause) < deadline else { throw described }
            }
            Thread.sleep(forTimeInterval: pause)
            pause = min(pause * 2, 0.25)
        }
    }

    /// Checks an existing file without writing to it: SQLite's header, then (read-only) the
    /// application id and the schema version.
    private static func inspect(_ path: String) throws(HistoryError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .database(path: path, reason: "cannot read the file")
        }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        // An empty file is an empty database to SQLite (and what a crashed creator leaves).
        if header.isEmpty { return }
        guard header == Data("SQLite format 3\0".utf8) else {
            throw .notADatabase(path: path, reason: "it does not start with SQLite's header")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        do {
            let reader = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? reader.close() }
            try reader.read { db in
                let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                if application == HistorySchema.applicationID {
                    if version > HistorySchema.version {
                        throw HistoryError.newerSchema(path: path, found: version, supported: HistorySchema.version)
                    }
                    return
                }
                if application != 0 {
                    throw HistoryError.foreignDatabase(
                        path: path, reason: "its application id is 0x\(String(UInt32(bitPattern: application), radix: 16)), not LayoutBench's")
                }
                // No application id: only an empty file (or one whose creator has not yet
                // finished its first migration) may be taken over.
                let migrationsOnly = tables.allSatisfy { $0 == "grdb_migrations" }
                let appliedMigrations = !tables.contains("grdb_migrations") ? 0 : try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") ?? 0
                if !migrationsOnly || appliedMigrations > 0 {
                    let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
                    throw HistoryError.foreignDatabase(path: path, reason: "an SQLite database with other tables (\(shown))")
                }
            }
        } catch let error as HistoryError {
            throw error
        } catch {
            throw describe(error, path: path)
        }
    }

    /// Applies the migrations this file lacks. Two processes that open a new file at once
    /// may both try the first migration; the loser's transaction rolls back, and it finds
    /// the work done when it looks again.
    private func migrate() throws(HistoryError) {
        let migrator = HistorySchema.migrator
        var attempt = 0
        while true {
            do {
                let found = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
                if found > HistorySchema.version {
                    throw HistoryError.newerSchema(path: path, found: found, supported: HistorySchema.version)
                }
                try migrator.migrate(queue)
                return
            } catch let error as HistoryError {
                throw error
            } catch {
                attempt += 1
                let done = (try? queue.read { db in try migrator.hasCompletedMigrations(db) }) ?? false
                if done { return }
                if attempt >= 5 { throw Self.describe(error, path: path) }
                Thread.sleep(forTimeInterval: 0.005 * Double(1 << attempt))
            }
        }
    }

    /// This file's schema version (`PRAGMA user_version`).
    public func schemaVersion() throws(HistoryError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
    }

    /// Runs `body` in one read transaction.
    func read<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try queue.read(body)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw Self.describe(error, path: path)
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: the write lock is taken at the
    /// start, where the busy timeout applies, never upgraded half-way (which SQLite would
    /// refuse at once with SQLITE_BUSY when another process writes).
    func write<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try queue.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw HistoryError.database(path: path, reason: "a write produced no result") }
                return result
            }
        } catch let error as HistoryError {
            throw error
        } catch {
            throw Self.describe(error, path: path)
        }
    }

    /// An SQLite error as a ``HistoryError`` naming the file.
    static func describe(_ error: any Error, path: String) -> HistoryError {
        if let error = error as? HistoryError { return error }
        if let error = error as? DatabaseError {
            let message = error.message ?? "\(error.resultCode)"
            switch error.resultCode {
            case .SQLITE_NOTADB: return .notADatabase(path: path, reason: message)
            case .SQLITE_CORRUPT: return .corrupt(path: path, reason: message)
            case .SQLITE_BUSY, .SQLITE_LOCKED: return .locked(path: path, reason: message)
            default: return .database(path: path, reason: message)
            }
        }
        return .database(path: path, reason: "\(error)")
    }
}

/// What `history verify` found in a sound file.
public struct VerifyReport: Sendable, Hashable {
    public var schemaVersion: Int
    public var runs: Int
    public var benchRows: Int
    public var findings: Int
    public var signatures: Int
}

extension HistoryDatabase {
    /// Checks the whole file: SQLite's integrity check, the references between tables, and
    /// that every run's digest is a SHA-256. Throws ``HistoryError/corrupt(path:reason:)``
    /// with SQLite's first complaints when the file is damaged.
    public func verify() throws(HistoryError) -> VerifyReport {
        try read { db in
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check(20)")
            if integrity != ["ok"] {
                throw HistoryError.corrupt(path: path, reason: integrity.prefix(3).joined(separator: "; "))
            }
            let dangling = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            if !dangling.isEmpty {
                throw HistoryError.corrupt(path: path, reason: "\(dangling.count) rows refer to runs that are not recorded")
            }
            let badDigests = try Int.fetchOne(db, sql: "SELECT count(*) FROM run WHERE length(digest) <> 64 OR digest GLOB '*[^0-9a-f]*'") ?? 0
            if badDigests > 0 {
                throw HistoryError.corrupt(path: path, reason: "\(badDigests) runs have no valid report digest")
            }
            return VerifyReport(
                schemaVersion: try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
                runs: try Int.fetchOne(db, sql: "SELECT count(*) FROM run") ?? 0,
                benchRows: try Int.fetchOne(db, sql: "SELECT count(*) FROM bench_row") ?? 0,
                findings: try Int.fetchOne(db, sql: "SELECT count(*) FROM finding") ?? 0,
                signatures: try Int.fetchOne(db, sql: "SELECT count(DISTINCT signature) FROM occurrence") ?? 0)
        }
    }

    /// Moves the write-ahead log into the file (so that a copy of the file alone, e.g. a CI
    /// cache, holds everything).
    public func checkpoint() throws(HistoryError) {
        do {
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch {
            throw Self.describe(error, path: path)
        }
    }
}
