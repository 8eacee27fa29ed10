import CProcessControl
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Starts child processes from one thread that lives as long as the process.
///
/// Children arm `PR_SET_PDEATHSIG` (see ``ParentDeath``), which Linux fires when the *thread*
/// that started them ends, not the process: started from a Dispatch worker thread that later
/// retires, a worker or an adapter would be killed in the middle of a campaign. Spawning from
/// this one permanent thread keeps the signal for its real purpose: the child dies with
/// LayoutBench.
public final class SpawnThread: @unchecked Sendable {
    // Sound: `jobs` is only touched with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    /// The process's one spawn thread, started on first use.
    public static let shared = SpawnThread()

    private init() {
        let thread = Thread { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job()
            }
        }
        thread.name = "layoutbench-spawner"
        thread.start()
    }

    /// Runs `body` on the spawn thread and returns its result (the caller waits).
    public func run<T>(_ body: @escaping () throws -> T) throws -> T {
        let done = NSCondition()
        var result: Result<T, any Error>?
        condition.lock()
        jobs.append {
            let value = Result { try body() }
            done.lock()
            result = value
            done.signal()
            done.unlock()
        }
        condition.signal()
        condition.unlock()
        done.lock()
        while result == nil { done.wait() }
        done.unlock()
        return try result!.get()
    }
}

/// How a child process of LayoutBench dies with its parent, even one killed by SIGKILL.
///
/// The parent puts its pid in the child's environment (``environmentKey``) and starts the
/// child from ``SpawnThread``; the child calls ``arm()`` first thing. A worker hung in a solve
/// never reads the end of its input, so the pipe alone cannot end it: the kernel's
/// parent-death signal can.
public enum ParentDeath {
    /// The environment variable that carries the parent's pid.
    public static let environmentKey = "LAYOUTBENCH_PARENT_PID"

    /// `environment` with this process named as the parent.
    public static func environment(_ environment: [String: String]) -> [String: String] {
        var environment = environment
        environment[environmentKey] = String(getpid())
        return environment
    }

    /// In the child: SIGKILL this process when its parent dies, and exit at once when it
    /// already has (it may die between the spawn and this call). Does nothing when the
    /// environment names no parent (the command was started by hand).
    public static func arm() {
        guard let expected = ProcessInfo.processInfo.environment[environmentKey].flatMap({ pid_t($0) }) else { return }
        _ = layoutbench_set_parent_death_signal(SIGKILL)
        if getppid() != expected { _exit(0) }
    }
}
