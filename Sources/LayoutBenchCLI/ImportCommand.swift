import ArgumentParser
import BackendContract
import ExactSimplex
import Foundation
import Fuzzing
import InterfaceBuilder
import LayoutModel

/// `layoutbench import`: systems from other tools' files.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn other tools' layout files into .layout systems.",
        subcommands: [ImportIBCommand.self, ImportMPSCommand.self])
}

/// `layoutbench import ib FILE|DIR... --out DIR [--check] [--manifest FILE]`
struct ImportIBCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ib",
        abstract: "Import Interface Builder files (.xib, .storyboard): one .layout per layout root, with Xcode's frames.",
        discussion: """
            Every layout root (a scene's view, a cell's content view, a top-level view, a window's \
            content view) becomes NAME.layout, with a header naming the source, the object IDs and \
            what was approximated, and NAME.expected.json, the result form with the frames Xcode \
            stored (null where not meaningful). Folders are searched for .xib and .storyboard files. \
            Roots that cannot be imported are listed on stderr as file:line:column: message. With \
            --check each root is solved with the exact backend and its frames, rounded to the \
            device's pixels, are compared with the stored ones; --manifest writes that comparison \
            as an apps manifest (Corpora/apps/manifest.json; give the corpus folder as the only \
            path). See docs/interface-builder.md. Exit status: 0 when every file was read, 2 when a \
            file is not readable XML or not an IB document.
            """)

    @Argument(help: "Interface Builder files, or folders to search for them.")
    var paths: [String]

    @Option(help: "The folder to write NAME.layout and NAME.expected.json into.")
    var out: String?

    @Flag(help: "Solve each root with the exact backend and compare its rounded frames with the stored ones.")
    var check = false

    @Option(help: "Write the apps manifest (implies --check; one corpus folder as the path; explanations in an existing manifest are kept).")
    var manifest: String?

    @Flag(help: "List every root's outcome, not only the summary.")
    var verbose = false

    func validate() throws {
        if out == nil && !check && manifest == nil {
            throw ValidationError("give --out DIR, --check or --manifest FILE")
        }
        if manifest != nil && paths.count != 1 {
            throw ValidationError("--manifest takes one corpus folder as its path")
        }
    }

    func run() throws {
        let backend = ExactSimplexBackend()
        let solve: (ConstraintSystem) -> Solution? = { system in
            (try? backend.solve(system, budget: Budget(wallTime: .seconds(60))))?.solution
        }
        if let manifest {
            try writeManifest(to: manifest, corpus: paths[0], solve: solve)
            return
        }
        var unreadable = 0
        var imported = 0
        var skipped = 0
        var clean = 0
        var agreeing = 0
        var staleRoots = 0
        if let out { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) }
        var usedNames: Set<String> = []
        for file in Self.inputFiles(paths) {
            let result: IBFileImport
            do {
                result = try InterfaceBuilderImporter.importFile(at: file)
            } catch {
                printError(error.description)
                unreadable += 1
                continue
            }
            for note in result.notes { printError("\(file): note: \(note)") }
            for s in result.skipped { printError("\(s.reason.description) (root \(s.rootID) skipped)") }
            skipped += result.skipped.count
            for layout in result.layouts {
                imported += 1
                var name = layout.name
                var n = 2
                while usedNames.contains(name) { name = "\(layout.name)-\(n)"; n += 1 }
                usedNames.insert(name)
                if let out { try write(layout, name: name, into: out) }
                guard check else { continue }
                let verdict: String
                if let solution = solve(layout.system) {
                    let agreement = FrameAgreement(layout: layout, solution: solution)
                    let stale = agreement.agrees || layout.isMarkedByXcode ? [] : layout.staleEvidence
                    if !layout.isMarkedByXcode {
                        clean += 1
                        if agreement.agrees { agreeing += 1 } else if !stale.isEmpty { staleRoots += 1 }
                    }
                    let broken = agreement.agrees ? [] : layout.constraintsBrokenByStoredFrames
                    verdict = agreement.agrees ? "agrees" : (stale.isEmpty ? "" : "[stale file] ") + "differs: "
                        + agreement.mismatches.prefix(3).joined(separator: "; ")
                        + (broken.isEmpty ? "" : " [stored frames break \(broken.prefix(3).joined(separator: ", "))]")
                } else {
                    // Counted as the manifest counts it (`AppCorpus.summarize`): a clean root
                    // that does not agree.
                    if !layout.isMarkedByXcode { clean += 1 }
                    verdict = "no solution"
                }
                if verbose || !verdict.hasPrefix("agrees") {
                    print("\(name): \(layout.isMarkedByXcode ? "[marked by Xcode] " : "")\(verdict)")
                }
            }
        }
        print("\(imported) roots imported, \(skipped) skipped\(unreadable > 0 ? ", \(unreadable) files unreadable" : "")")
        if check {
            print("agreement with Xcode's frames on roots Xcode does not mark, stale files aside: \(agreeing)/\(clean - staleRoots)"
                + " (\(staleRoots) stale)")
        }
        if unreadable > 0 { throw ExitStatus.invalidInput }
    }

    /// Files as given, folders searched (sorted).
    static func inputFiles(_ paths: [String]) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                files += AppCorpus.files(under: path).map { (path as NSString).appendingPathComponent($0) }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// Writes NAME.layout and NAME.expected.json atomically and reads them back.
    func write(_ layout: ImportedLayout, name: String, into folder: String) throws {
        let base = URL(fileURLWithPath: folder).appendingPathComponent(name)
        let text = Data(layout.layoutText.utf8)
        let expected = layout.expectedJSON
        for (data, url) in [(expected, base.appendingPathExtension("expected.json")), (text, base.appendingPathExtension("layout"))] {
            try FindingStore.atomicWrite(data, to: url)
            guard (try? Data(contentsOf: url)) == data else {
                printError("\(url.path): the file does not read back as written")
                throw ExitStatus.internalFailure
            }
        }
    }

    func writeManifest(to path: String, corpus: String, solve: (ConstraintSystem) -> Solution?) throws {
        let previous = (try? Data(contentsOf: URL(fileURLWithPath: path))).flatMap { try? JSONDecoder().decode(AppsManifest.self, from: $0) }
        let manifest = AppCorpus.check(root: corpus, previous: previous, solve: solve)
        let data = try manifest.encoded()
        try FindingStore.atomicWrite(data, to: URL(fileURLWithPath: path))
        for app in manifest.apps {
            let rate = String(format: "%.1f%%", 100 * app.agreementRate)
            print("\(app.app): \(app.roots) roots, \(app.imported) imported, \(app.skipped) skipped, \(app.markedByXcode) marked by Xcode, \(app.stale) stale, agreement \(app.agreeing)/\(app.measured) (\(rate))")
        }
        print("wrote \(path)")
    }
}
