import GRDB

/// The history's tables and their migrations (docs/history.md, "The file").
///
/// Each migration runs in its own transaction through GRDB's `DatabaseMigrator` and ends by
/// setting `PRAGMA user_version` to its number, so that a file's schema version can be read
/// (and a newer one refused, naming both versions) without knowing the migrations' names.
/// `PRAGMA application_id` marks the file as a LayoutBench history; an SQLite file without
/// it and with tables of its own is somebody else's and is never touched.
enum HistorySchema {
    /// "LBHS" in ASCII: the file's `application_id`.
    static let applicationID: Int32 = 0x4C42_4853
    /// The schema version this build writes and reads: the number of migrations.
    static let version = 2

    /// The migrations, oldest first. Append new ones; never edit or reorder a released one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 runs and bench rows") { db in
            try db.execute(sql: """
                PRAGMA application_id = \(applicationID);
                CREATE TABLE run (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    digest TEXT NOT NULL UNIQUE CHECK (length(digest) = 64),
                    kind TEXT NOT NULL CHECK (kind IN ('bench', 'fuzz')),
                    createdAt TEXT NOT NULL,
                    recordedAt TEXT NOT NULL,
                    source TEXT NOT NULL,
                    reportPath TEXT,
                    reportVersion INTEGER NOT NULL,
                    toolVersion TEXT,
                    hostname TEXT,
                    operatingSystem TEXT,
                    processorCount INTEGER,
                    physicalMemoryBytes INTEGER,
                    suite TEXT,
                    warmupRuns INTEGER,
                    repetitions INTEGER,
                    seconds REAL,
                    families TEXT NOT NULL DEFAULT '[]'
                );
                CREATE INDEX run_by_time ON run(kind, createdAt, id);
                CREATE TABLE run_backend (
                    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    version TEXT,
                    PRIMARY KEY (runId, name)
                );
                CREATE TABLE bench_row (
                    id INTEGER PRIMARY KEY,
                    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    family TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    seed TEXT NOT NULL,
                    views INTEGER NOT NULL,
                    constraints INTEGER NOT NULL,
                    backend TEXT NOT NULL,
                    status TEXT NOT NULL,
                    note TEXT,
                    samples INTEGER,
                    minimum REAL,
                    p50 REAL,
                    p90 REAL,
                    p99 REAL,
                    maximum REAL,
                    mean REAL,
                    standardDeviation REAL,
                    iterations INTEGER,
                    peakResidentBytes INTEGER
                );
                CREATE INDEX bench_row_by_run ON bench_row(runId);
                CREATE INDEX bench_row_by_series ON bench_row(family, size, backend);
                PRAGMA user_version = 1;
                """)
        }
        migrator.registerMigration("v2 campaigns, occurrences and findings") { db in
            try db.execute(sql: """
                CREATE TABLE campaign (
                    runId INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
                    seed TEXT NOT NULL,
                    shardCount INTEGER NOT NULL,
                    shards TEXT NOT NULL,
                    missingShards TEXT NOT NULL,
                    interrupted INTEGER NOT NULL,
                    cases INTEGER NOT NULL,
                    requestedCases INTEGER,
                    perSignature INTEGER NOT NULL,
                    minSize INTEGER,
                    maxSize INTEGER
                );
                CREATE TABLE occurrence (
                    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    signature TEXT NOT NULL,
                    count INTEGER NOT NULL,
                    PRIMARY KEY (runId, signature)
                );
                CREATE INDEX occurrence_by_signature ON occurrence(signature);
                CREATE TABLE finding (
                    id INTEGER PRIMARY KEY,
                    runId INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    fingerprint TEXT NOT NULL,
                    signature TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    verdict TEXT NOT NULL,
                    backends TEXT NOT NULL,
                    oracle TEXT,
                    family TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    seed TEXT NOT NULL,
                    caseIndex TEXT NOT NULL,
                    detail TEXT NOT NULL,
                    reducedConstraints INTEGER NOT NULL,
                    repro TEXT NOT NULL,
                    reproPath TEXT,
                    reproDigest TEXT,
                    UNIQUE (runId, fingerprint)
                );
                CREATE INDEX finding_by_signature ON finding(signature);
                PRAGMA user_version = 2;
                """)
        }
        return migrator
    }

    /// Tables this schema creates (GRDB's bookkeeping table included).
    static let tables: Set<String> = ["run", "run_backend", "bench_row", "campaign", "occurrence", "finding", "grdb_migrations", "sqlite_sequence"]
}
