import ExactArithmetic
import Foundation
import LayoutModel

/// The expected result stored beside a corpus file (`NAME.expected.json`): the spec's
/// result form (§6, ``LayoutModel/ResultDocument``, in which a frame component is `null`
/// where it is not determined and is then not compared) with one field of its own,
/// `conflictIsUnique`. The result's fields read through as the expectation's own
/// (`expected.frames`), and the JSON is one flat object, as before.
@dynamicMemberLookup
public struct ExpectedResult: Sendable, Hashable, Codable {
    /// The expected answer, in the spec's result form.
    public var result: ResultDocument
    /// False when the system may have other irreducible conflicts than the one listed: then
    /// any conflict is accepted here (the comparator checks that it is one).
    public var conflictIsUnique: Bool = true

    private enum CodingKeys: String, CodingKey {
        case conflictIsUnique
    }

    public subscript<Field>(dynamicMember field: WritableKeyPath<ResultDocument, Field>) -> Field {
        get { result[keyPath: field] }
        set { result[keyPath: field] = newValue }
    }

    public init(from decoder: any Decoder) throws {
        result = try ResultDocument(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        conflictIsUnique = try c.decodeIfPresent(Bool.self, forKey: .conflictIsUnique) ?? true
    }

    public func encode(to encoder: any Encoder) throws {
        try result.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(conflictIsUnique, forKey: .conflictIsUnique)
    }

    public init(
        status: SolveStatus, frames: [String: [Double?]], objective: [Double], ambiguous: [String],
        broken: [String], conflict: [String], exact: ResultDocument.ExactFrames? = nil
    ) {
        result = ResultDocument(
            status: status, frames: frames, objective: objective, ambiguous: ambiguous,
            broken: broken, conflict: conflict, exact: exact)
    }

    /// Reads `NAME.expected.json`.
    public init(contentsOf url: URL) throws {
        self = try JSONDecoder().decode(ExpectedResult.self, from: Data(contentsOf: url))
    }

    /// Why the expectation cannot check a solution of `system`, or nil when it can: every
    /// view must have a frame of four components (`null` where not determined), and no frame
    /// may name an item the system lacks. An empty `frames` would pass any answer.
    public func incompleteness(for system: ConstraintSystem) -> String? {
        let views = system.items.dropFirst().map(\.name)
        if let missing = views.first(where: { result.frames[$0] == nil }) {
            return result.frames.isEmpty ? "\"frames\" is empty: it expects nothing of the \(views.count) views"
                : "no frame for view \(missing)"
        }
        let known = Set(views)
        if let unknown = result.frames.keys.sorted().first(where: { !known.contains($0) }) {
            return "a frame for \(unknown), which is not a view of the system"
        }
        if let (name, frame) = result.frames.sorted(by: { $0.key < $1.key }).first(where: { $0.value.count != FrameComponent.allCases.count }) {
            return "the frame of \(name) has \(frame.count) components, not \(FrameComponent.allCases.count)"
        }
        return nil
    }

    /// The expected file that belongs beside a `.layout` file.
    public static func url(for layout: URL) -> URL {
        layout.deletingPathExtension().appendingPathExtension("expected.json")
    }

    /// Where a solution differs from the expectation; empty when it matches.
    ///
    /// Numbers agree within `tolerance` (absolute, scaled by the larger magnitude when that
    /// exceeds 1). Where the expectation has exact frames and the solution exact values, those
    /// are compared exactly as well. Conflict sets are compared as written: corpus files are
    /// built so that their conflict is the only irreducible one.
    public func mismatches(in solution: Solution, of system: ConstraintSystem, tolerance: Double = 1e-6) -> [String] {
        var problems: [String] = []
        func close(_ a: Double, _ b: Double) -> Bool {
            abs(a - b) <= tolerance * max(1, abs(a), abs(b))
        }
        if solution.status != result.status {
            problems.append("status \(solution.status.rawValue), expected \(result.status.rawValue)")
            return problems
        }
        let broken = solution.broken.map(system.constraintName)
        if broken != self.broken { problems.append("broken \(broken), expected \(self.broken)") }
        let conflict = solution.conflict.map(system.constraintName)
        if conflictIsUnique && conflict != self.conflict {
            problems.append("conflict \(conflict), expected \(self.conflict)")
        }
        let ambiguous = solution.ambiguous.map(system.unknownName)
        if ambiguous.sorted() != self.ambiguous.sorted() {
            problems.append("ambiguous \(ambiguous), expected \(self.ambiguous)")
        }
        if solution.objective.count != result.objective.count
            || zip(solution.objective, result.objective).contains(where: { !close($0, $1) })
        {
            problems.append("objective \(solution.objective), expected \(result.objective)")
        }
        guard solution.values.count == system.variableCount else {
            problems.append("\(solution.values.count) values for \(system.variableCount) unknowns")
            return problems
        }
        let frames: [[Double]] = system.frames(values: solution.values, global: false)
        for index in 1..<max(system.items.count, 1) {
            let name = system.items[index].name
            guard let expected = self.frames[name] else {
                problems.append("no expected frame for \(name)")
                continue
            }
            for (component, value) in zip(FrameComponent.allCases, expected) {
                guard let value else { continue }
                let actual = frames[index - 1][component.rawValue]
                if !close(actual, value) {
                    problems.append("\(name).\(component.name) = \(actual), expected \(value)")
                }
            }
        }
        if let exactFrames = result.exact?.frames, let exactValues = solution.exactValues {
            let values = exactValues.compactMap(Rational.init)
            if values.count == system.variableCount {
                let frames = system.frames(values: values, global: false)
                for index in 1..<max(system.items.count, 1) {
                    let name = system.items[index].name
                    for (component, text) in zip(FrameComponent.allCases, exactFrames[name] ?? []) {
                        guard let text, let value = Rational(text) else { continue }
                        if frames[index - 1][component.rawValue] != value {
                            problems.append("\(name).\(component.name) = \(frames[index - 1][component.rawValue]) exactly, expected \(text)")
                        }
                    }
                }
            } else {
                problems.append("exact values are not rationals")
            }
        }
        return problems
    }
}
