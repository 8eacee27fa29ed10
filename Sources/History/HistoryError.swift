/// Why a history file or a report could not be used. Every case names the file, so that a
/// nightly log says which file to look at; none of them is ever a crash.
public enum HistoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No history at the path (commands that only read the history do not create one).
    case missing(path: String)
    /// The file is not an SQLite database at all (its header says so); it was left untouched.
    case notADatabase(path: String, reason: String)
    /// An SQLite database, but not a LayoutBench history; it was left untouched.
    case foreignDatabase(path: String, reason: String)
    /// A history written by a newer `layoutbench`, whose schema this one does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// SQLite found the file damaged.
    case corrupt(path: String, reason: String)
    /// Another process held the file's lock for longer than the busy timeout.
    case locked(path: String, reason: String)
    /// Any other failure of SQLite or of the file system on the history.
    case database(path: String, reason: String)
    /// A report that cannot be recorded.
    case unreadableReport(path: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let path):
            return "\(path): no history here (record a run first, or name the file with --history)"
        case .notADatabase(let path, let reason), .foreignDatabase(let path, let reason):
            return "\(path): not a LayoutBench history: \(reason); the file was left as it is"
        case .newerSchema(let path, let found, let supported):
            return "\(path): history schema version \(found) is newer than this layoutbench reads (version \(supported)); use a newer layoutbench"
        case .corrupt(let path, let reason):
            return "\(path): the history is damaged: \(reason)"
        case .locked(let path, let reason):
            return "\(path): \(reason) (another process kept the history locked; try again when it has finished)"
        case .database(let path, let reason), .unreadableReport(let path, let reason):
            return "\(path): \(reason)"
        }
    }

    /// Whether the failure was only another process holding the lock (worth waiting for).
    var isLockContention: Bool {
        if case .locked = self { return true }
        return false
    }
}
