import Foundation
import Reporting
import Runner
import Synchronization

/// Progress on stderr: a bar redrawn in place on a terminal, a plain line every few seconds
/// otherwise (CI logs, files); each with the elapsed time and an ETA (``ProgressEstimate``).
final class ProgressDisplay: Sendable {
    private let enabled: Bool
    private let isTerminal: Bool
    private let start = ContinuousClock.now
    private let timeLimit: Duration?
    private let lastLine = Mutex<ContinuousClock.Instant?>(nil)

    /// - Parameter timeLimit: the run's wall-clock limit (`fuzz --time`), which bounds the ETA.
    init(enabled: Bool, timeLimit: Duration? = nil) {
        self.enabled = enabled
        self.isTerminal = isatty(STDERR_FILENO) != 0
        self.timeLimit = timeLimit
    }

    func update(completed: Int, total: Int?, text: String) {
        guard enabled else { return }
        let interval: Duration = isTerminal ? .milliseconds(100) : .seconds(5)
        let now = ContinuousClock.now
        let due = lastLine.withLock { last -> Bool in
            if let last, now - last < interval, completed != total { return false }
            last = now
            return true
        }
        guard due else { return }
        let count = total.map { "\(completed)/\($0)" } ?? "\(completed)"
        let estimate = ProgressEstimate(completed: completed, total: total, elapsed: now - start, timeLimit: timeLimit).text
        if isTerminal {
            var bar = ""
            if let total, total > 0 {
                let filled = min(30, 30 * completed / total)
                bar = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] "
            }
            let line = "\r\(bar)\(count) \(estimate); \(text)"
            FileHandle.standardError.write(Data((line.padding(toLength: max(line.count, 100), withPad: " ", startingAt: 0)).utf8))
        } else {
            printError("[\(count)] \(estimate); \(text)")
        }
    }

    /// Whether lines may carry colour: on a terminal, unless NO_COLOR is set.
    var colored: Bool { isTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil }

    /// A result that has just come in (a bench row, a new finding) on a line of its own:
    /// above the bar on a terminal, which the next update draws again at once.
    func show(_ line: String) {
        guard enabled else { return }
        lastLine.withLock { last in
            if isTerminal {
                FileHandle.standardError.write(Data(("\r" + line.padding(toLength: max(line.count, 100), withPad: " ", startingAt: 0) + "\n").utf8))
                last = nil
            } else {
                printError(line)
            }
        }
    }

    /// A bench's progress: the row that has just finished (``BenchTable/line(_:color:)``),
    /// then the bar or line.
    func update(_ progress: BenchProgress) {
        if let row = progress.finished { show(BenchTable.line(row, color: colored)) }
        update(completed: progress.completed, total: progress.total, text: progress.current)
    }

    func finish() {
        if enabled && isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
