import Foundation
import Synchronization

/// Progress on stderr: a bar redrawn in place on a terminal, a plain line every few seconds
/// otherwise (CI logs, files).
final class ProgressDisplay: Sendable {
    private let enabled: Bool
    private let isTerminal: Bool
    private let lastLine = Mutex<ContinuousClock.Instant?>(nil)

    init(enabled: Bool) {
        self.enabled = enabled
        self.isTerminal = isatty(STDERR_FILENO) != 0
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
        if isTerminal {
            var bar = ""
            if let total, total > 0 {
                let filled = min(30, 30 * completed / total)
                bar = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] "
            }
            let line = "\r\(bar)\(count) \(text)"
            FileHandle.standardError.write(Data((line.padding(toLength: max(line.count, 100), withPad: " ", startingAt: 0)).utf8))
        } else {
            printError("[\(count)] \(text)")
        }
    }

    func finish() {
        if enabled && isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
