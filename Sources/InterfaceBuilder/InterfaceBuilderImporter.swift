import Foundation
import LayoutModel

/// Imports Interface Builder files (`.xib`, `.storyboard`): every layout root becomes an
/// ``ImportedLayout`` (a system, the frames Xcode stored, notes on approximations) or a
/// ``SkippedRoot`` with a positioned reason. Nothing in a file can crash or hang it.
public enum InterfaceBuilderImporter {
    /// Imports a file from disk. Throws only when the file as a whole cannot be read (not
    /// XML, not an IB document); problems of one root skip that root.
    public static func importFile(at path: String, displayName: String? = nil) throws(IBImportError) -> IBFileImport {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw IBImportError(file: displayName ?? path, location: SourceLocation(line: 1, column: 1), message: "cannot read the file")
        }
        return try importData(data, file: displayName ?? path)
    }

    /// Imports a file's contents; `file` names it in errors, notes and headers.
    public static func importData(_ data: Data, file: String) throws(IBImportError) -> IBFileImport {
        let document = try IBDocument(data: data, file: file)
        var result = IBFileImport(file: file, layouts: [], skipped: [], notes: document.notes)
        let allIDs = identifiers(in: document.root)
        let stem = Self.stem(of: file)
        let scenes = SceneContext(document: document.root)
        for candidate in LayoutRootFinder.roots(in: document) {
            var importer = RootImporter(document: document, candidate: candidate, scenes: scenes)
            do {
                let layout = try importer.run(name: "\(stem)-\(candidate.id)", allIDs: allIDs)
                result.layouts.append(layout)
            } catch {
                result.skipped.append(SkippedRoot(rootID: candidate.id, kind: candidate.kind, reason: error))
            }
        }
        return result
    }

    /// `Main.storyboard` → `Main`, made safe for file names.
    static func stem(of file: String) -> String {
        let base = (file as NSString).lastPathComponent
        let stem = (base as NSString).deletingPathExtension
        return String(stem.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "_" })
    }

    static func identifiers(in node: XMLElementNode) -> Set<String> {
        var ids: Set<String> = []
        var stack = [node]
        while let n = stack.popLast() {
            if let id = n["id"] { ids.insert(id) }
            stack += n.children
        }
        return ids
    }
}
