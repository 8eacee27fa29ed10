import Foundation

#if canImport(Glibc)
import Glibc
import CProcessControl
#endif

/// A child process with pipes on its standard input and output, started with `posix_spawn`
/// and reaped with `waitpid` by this type alone.
///
/// Foundation's `Process` reaps children through its own SIGCHLD machinery; a runner that
/// must survive any way a worker can die (and run under Thread Sanitizer, which defers
/// signals) is simpler and more predictable when it owns the whole life cycle itself.
public final class ChildProcess {
    public let pid: pid_t
    /// Our end of the child's standard input.
    public private(set) var input: Int32
    /// Our end of the child's standard output.
    public private(set) var output: Int32
    private var reaped: String?
    private var leadsGroup = false

    private static let spawnLock = NSLock()

    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `executable` with `arguments`; the child's standard error goes to /dev/null
    /// unless `inheritStandardError`. With `connected` false, its standard input and output
    /// are /dev/null too (a command run for its exit status and files). With
    /// `newProcessGroup`, the child leads a process group of its own, and ``kill()`` ends the
    /// whole group (a child's own children too).
    public init(executable: String, arguments: [String], environment: [String: String], inheritStandardError: Bool,
                connected: Bool = true, newProcessGroup: Bool = false) throws {
        // A write to a worker that just died must fail with EPIPE, not kill the runner.
        signal(SIGPIPE, SIG_IGN)
        // Pipes are made close-on-exec under one lock with the spawn, so that a worker started
        // by another thread never inherits this worker's pipe ends (which would hide its death).
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the child's copies.
        if connected {
            posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
            posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if !inheritStandardError {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Descriptors other code opened without close-on-exec (a pipe another thread made
        // for a process of its own) would be inherited too, and the child would hold their
        // write ends open for its life: a CI run hung reading a finished process's output
        // while an adapter spawned beside it held that pipe. The child keeps 0, 1 and 2 only.
        let closing = layoutbench_spawn_actions_close_from(&actions, 3)
        guard closing == 0 else {
            close(toChild[0]); close(toChild[1]); close(fromChild[0]); close(fromChild[1])
            throw SpawnError(description: "posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(closing)))")
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if newProcessGroup {
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1]); close(fromChild[0])
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        leadsGroup = newProcessGroup
        input = toChild[1]
        output = fromChild[0]
    }

    /// The exit status once the child has exited normally (nil while it runs, or when a
    /// signal ended it).
    public private(set) var exitStatus: Int32?

    /// Waits for the child to end (once; later calls return the same answer) and says how.
    @discardableResult
    public func waitForExit() -> String {
        if let reaped { return reaped }
        closePipes()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return record(status)
    }

    /// True once the child has ended (reaping it), without waiting.
    public var hasExited: Bool {
        if reaped != nil { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        closePipes()
        record(status)
        return true
    }

    @discardableResult
    private func record(_ status: Int32) -> String {
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS are C macros Swift cannot import.
        let signal = status & 0x7f
        let reason: String
        if signal == 0 {
            exitStatus = (status >> 8) & 0xff
            reason = "exited with status \((status >> 8) & 0xff)"
        } else {
            reason = "killed by signal \(signal) (\(Self.signalName(signal)))"
        }
        reaped = reason
        return reason
    }

    /// Kills the child (SIGKILL; its whole group when it leads one) and reaps it.
    public func kill() {
        if reaped == nil { Glibc.kill(leadsGroup ? -pid : pid, SIGKILL) }
        waitForExit()
    }

    private func closePipes() {
        if input >= 0 { close(input); input = -1 }
        if output >= 0 { close(output); output = -1 }
    }

    deinit { kill() }

    public static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGILL: return "SIGILL, a Swift trap"
        case SIGTRAP: return "SIGTRAP, a Swift trap"
        case SIGSEGV: return "SIGSEGV"
        case SIGABRT: return "SIGABRT"
        case SIGKILL: return "SIGKILL"
        case SIGBUS: return "SIGBUS"
        case SIGFPE: return "SIGFPE"
        default: return "signal \(signal)"
        }
    }
}
