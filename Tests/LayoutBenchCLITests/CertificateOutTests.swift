import Foundation
import Testing

/// `solve --certify --certificate-out PATH`: a regular file gets the certificate atomically;
/// a device is written through, never replaced by a file (renaming over `/dev/full` turned the
/// device into a file and reported success); a failed write names the file and exits 1.
@Suite struct CertificateOutTests {
    static let layout = "root s 0 0 100 100\nview a\na.width == 10 @750\na.width == 20 @250\na.height == 5\n"

    static func isCharacterDevice(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeCharacterSpecial
    }

    @Test func aRegularFileGetsTheSparseCertificate() throws {
        let file = try SequenceCommandTests.file("levels.layout", Self.layout)
        let out = file + ".certificate.json"
        let run = try SequenceCommandTests.run(["solve", file, "--certify", "--certificate-out", out])
        #expect(run.status == 0, "\(run.error)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("layoutbench-exact-certificate\\/3") && text.contains("nonzeroLevelMultipliers"))
    }

    @Test func aFullDeviceIsAnErrorAndStaysADevice() throws {
        guard Self.isCharacterDevice("/dev/full") else {
            print("skipped: /dev/full is not a character device here")
            return
        }
        let file = try SequenceCommandTests.file("levels.layout", Self.layout)
        let run = try SequenceCommandTests.run(["solve", file, "--certify", "--certificate-out", "/dev/full"])
        #expect(run.status == 1)
        #expect(run.error.contains("cannot write the certificate: /dev/full: No space left on device"), "\(run.error)")
        #expect(Self.isCharacterDevice("/dev/full"))
    }

    /// An output folder under a plain file: exit 1 and the path with the system's reason, not
    /// Foundation's raw error dump.
    @Test func anUnwritableFuzzFolderIsNamed() throws {
        let file = try SequenceCommandTests.file("in-the-way", "a file, not a folder\n")
        let run = try SequenceCommandTests.run(["fuzz", "--cases", "1", "--out", file + "/out", "--quiet"])
        #expect(run.status == 1)
        #expect(run.error.contains(file + "/out: Not a directory"), "\(run.error)")
        #expect(!run.error.contains("NSCocoaErrorDomain"))
    }
}
