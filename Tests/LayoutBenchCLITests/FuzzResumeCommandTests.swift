import Foundation
import Testing

/// `fuzz --resume` where `--out` holds no campaign (issue 19), through the built executable:
/// a Slurm array's first attempt passes `--resume` too, so a new or empty folder starts the
/// campaign and says so on stderr; a folder of other files is invalid input (status 2).
@Suite struct FuzzResumeCommandTests {
    /// A fresh temporary folder, removed by the caller.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func fuzz(out: URL) throws -> SequenceCommandTests.Run {
        try SequenceCommandTests.run(["fuzz", "--seed", "3", "--cases", "2", "--backend", "exact", "--no-isolate",
                                      "--jobs", "1", "--quiet", "--no-history", "--no-fail-on-wrong", "--out", out.path, "--resume"])
    }

    @Test(arguments: ["new", "empty"])
    func resumingNothingStartsTheCampaignAndSaysSo(_ kind: String) throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("run")
        if kind == "empty" { try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true) }
        let run = try Self.fuzz(out: out)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("nothing to resume in \(out.path): starting a new campaign"), "\(run.error)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("report.json").path))
        // The campaign is now there: a second --resume continues it without the notice.
        let again = try Self.fuzz(out: out)
        #expect(again.status == 0, "\(again.error)")
        #expect(!again.error.contains("nothing to resume"), "\(again.error)")
    }

    @Test func resumingAFolderOfOtherFilesIsInvalidInput() throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        try Data("notes\n".utf8).write(to: out.appendingPathComponent("notes.txt"))
        let run = try Self.fuzz(out: out)
        #expect(run.status == 2, "\(run.error)")
        #expect(run.error.contains("\(out.path) holds no campaign to resume (no checkpoint.json, but notes.txt)"), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("checkpoint.json").path))
        #expect(!run.error.contains("nothing to resume"), "\(run.error)")
    }
}
