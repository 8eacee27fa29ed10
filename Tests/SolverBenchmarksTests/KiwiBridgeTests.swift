import FloatSimplex
import Foundation
import LayoutModel
@testable import SolverBenchmarks
import Testing

/// The repository root, found from this file's path.
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The documents kiwi's driver reads and the replies it writes.
@Suite struct KiwiBridgeTests {
    /// A workload's document has the driver's shapes: pairs of [index, number], levels, ops.
    @Test func workloadDocumentHasTheDriversShapes() throws {
        let workload = IncrementalWorkload.make(.form, size: 2)
        let data = try KiwiBridge.encode(KiwiBridge.WorkloadDocument(workload))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["name"] as? String == "form-2")
        #expect(object["variables"] as? Int == workload.variableCount)
        #expect(object["levels"] as? Int == 5)
        #expect(object["group"] == nil)
        #expect((object["strengths"] as? [Double])?.count == 5)
        let constraints = try #require(object["constraints"] as? [[String: Any]])
        #expect(constraints.count == workload.constraints.count)
        for (row, constraint) in zip(constraints, workload.constraints) {
            #expect(row["op"] as? String == constraint.relation.rawValue)
            #expect(row["level"] as? Int == constraint.strength.level)
            #expect(row["constant"] as? Double == constraint.constant)
            let terms = try #require(row["terms"] as? [[Any]])
            #expect(terms.count == constraint.terms.count)
            for (pair, term) in zip(terms, constraint.terms) {
                // The index must reach Python as an int: it indexes a list there.
                #expect(pair.first as? Int == term.variable.index)
                #expect((pair.last as? NSNumber)?.doubleValue == term.coefficient)
            }
        }
        #expect((object["edits"] as? [[Int]])?.count == 2)
        #expect((object["suggestions"] as? [Any])?.count == workload.suggestions.count)
    }

    /// A cells workload names its group size.
    @Test func groupedWorkloadNamesItsGroup() throws {
        let data = try KiwiBridge.encode(KiwiBridge.WorkloadDocument(IncrementalWorkload.make(.cells, size: 3)))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["group"] as? Int == 12)
    }

    /// Every row step kind is spelt as the driver's sequence mode reads it.
    @Test func sequenceDocumentSpellsEveryStep() throws {
        let row = LinearConstraint(
            [.init(Variable(0), 1), .init(Variable(1), -0.5)], constant: -8, relation: .greaterThanOrEqual,
            strength: Strength(level: 2))
        let document = KiwiBridge.SequenceDocument(
            name: "steps", rowSteps: [[.add(key: 0, row: row)], [.setConstant(key: 0, constant: 12.5), .remove(key: 0)]])
        let object = try #require(try JSONSerialization.jsonObject(with: KiwiBridge.encode(document)) as? [String: Any])
        #expect(object["mode"] as? String == "sequence")
        let passes = try #require(object["passes"] as? [[[String: Any]]])
        #expect(passes.count == 2)
        let add = passes[0][0]
        #expect(add["op"] as? String == "add")
        #expect(add["key"] as? Int == 0)
        #expect(add["rel"] as? String == ">=")
        #expect(add["level"] as? Int == 2)
        #expect(add["constant"] as? Double == -8)
        #expect((add["terms"] as? [[Any]])?.map { $0.first as? Int } == [0, 1])
        #expect(passes[1][0]["op"] as? String == "set")
        #expect(passes[1][0]["constant"] as? Double == 12.5)
        #expect(passes[1][1]["op"] as? String == "remove")
        #expect(passes[1][1]["constant"] == nil)
    }

    /// A number JSON cannot carry is an encoding error, not a file the driver cannot read.
    /// The float core given the row steps the driver recorded (what kiwi is given) reaches the
    /// driver's own answer after every kind of row step: constants set, a row removed, rows
    /// added; and it times each pass after the first.
    @Test func rowStepsReplayReachesTheDriversAnswer() throws {
        let sequence = try LayoutParser.parseSequence("""
            root r 400 400
            view a
            view b intrinsic 50 20
            named: a.left == r.left + 10
            a.top == r.top
            a.width == 100
            a.height == 10
            b.left == a.right + 8
            gap: b.top == a.bottom + 4
            layout
            set named constant 30
            layout
            set b intrinsic 80 20
            layout
            remove gap
            b.top == r.top + 40
            layout
            set named constant 12
            layout
            """)
        let measurement = try SequenceBenchmark.run(sequence, scratchSamples: 1, recordRowSteps: true)
        #expect(measurement.rowSteps.count == sequence.passCount)
        let replay = try SequenceBenchmark.rowStepSeconds(measurement.rowSteps)
        #expect(replay.seconds.count == sequence.passCount - 1)
        var driver = IncrementalPassSolver(sequence: sequence, reportsAmbiguity: false)
        var last = try driver.solveNextPass([])
        for steps in sequence.updates { last = try driver.solveNextPass(steps) }
        // No view was added or removed: solver variables are the system's.
        #expect(replay.lastValues.count == last.solution.values.count)
        for (core, pass) in zip(replay.lastValues, last.solution.values) { #expect(abs(core - pass) <= 1e-9) }
        #expect(last.solution.values[0] == 12 && last.solution.values[5] == 40)
    }

    /// A priority toggle reaches kiwi as the row's removal and re-addition at the new level;
    /// the float core's replay makes it one in-place strength change (with the constant, if
    /// that moved too) and still reaches the driver's answer after every toggle.
    @Test func priorityTogglesReplayAsStrengthChanges() throws {
        let sequence = try LayoutParser.parseSequence("""
            root r 400 400
            view a
            a.left == r.left + 10
            a.top == r.top
            a.height == 10
            wide: a.width == 300 @750
            narrow: a.width == 100 @250
            layout
            set wide priority 200
            layout
            set narrow priority 100
            layout
            set wide priority 900
            layout
            set narrow priority 950
            layout
            """)
        let measurement = try SequenceBenchmark.run(sequence, scratchSamples: 1, recordRowSteps: true)
        // Each toggle reaches kiwi as a removal and an addition of the same key.
        for steps in measurement.rowSteps.dropFirst() {
            #expect(steps.count == 2)
            guard steps.count == 2, case .remove(let key) = steps[0] else { continue }
            let held = measurement.rowSteps.flatMap { $0 }.compactMap { step -> LinearConstraint? in
                if case .add(key, let row) = step { return row } else { return nil }
            }.first
            #expect(SequenceBenchmark.isStrengthChange(of: held, to: steps[1], key: key))
        }
        var driver = IncrementalPassSolver(sequence: sequence, reportsAmbiguity: false)
        _ = try driver.solveNextPass([])
        for (pass, steps) in sequence.updates.enumerated() {
            let expected = try driver.solveNextPass(steps).solution.values
            let replay = try SequenceBenchmark.rowStepSeconds(Array(measurement.rowSteps.prefix(pass + 2)))
            #expect(replay.lastValues.count == expected.count)
            for (core, value) in zip(replay.lastValues, expected) { #expect(abs(core - value) <= 1e-9, "pass \(pass + 2)") }
        }
        #expect(!SequenceBenchmark.isStrengthChange(
            of: LinearConstraint([.init(Variable(0), 1)], constant: -1, relation: .equal, strength: .required),
            to: .add(key: 0, row: LinearConstraint([.init(Variable(0), 1)], constant: -1, relation: .equal, strength: Strength(level: 1))),
            key: 0))
    }

    @Test func nonFiniteNumbersAreRefused() {
        let row = LinearConstraint([.init(Variable(0), 1)], constant: .infinity, relation: .equal, strength: Strength(level: 0))
        let document = KiwiBridge.SequenceDocument(name: "inf", rowSteps: [[.add(key: 0, row: row)]])
        #expect(throws: EncodingError.self) { try KiwiBridge.encode(document) }
    }

    /// Replies decode field by field; a mistyped field is an error, not a silent default.
    @Test func repliesDecodeAndMistypedOnesAreRefused() throws {
        let reply = try KiwiBridge.decodeReply(Data("""
            {"name": "chain-3", "constraints": 9, "rejected": 0, "timeout": false, "add_seconds": 0.001,
             "values": [8, 66, 124.5]}
            """.utf8))
        #expect(reply.addSeconds == 0.001)
        #expect(reply.values == [8, 66, 124.5])
        #expect(!reply.timedOut)
        #expect(reply.passSeconds == nil)
        #expect(throws: DecodingError.self) { try KiwiBridge.decodeReply(Data(#"{"add_seconds": "fast"}"#.utf8)) }
    }

    /// The real driver reads both documents and answers what float answers (when kiwisolver
    /// is installed; CI installs it through scripts/ensure-dependencies.sh).
    @Test func theDriverReadsBothDocuments() throws {
        let python = ProcessInfo.processInfo.environment["PYTHON"] ?? "python3"
        guard Self.run([python, "-c", "import kiwisolver"]).status == 0 else {
            Issue.record("kiwisolver is not installed for \(python): run scripts/ensure-dependencies.sh")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiwi-bridge-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let workload = IncrementalWorkload.make(.chain, size: 6)
        let workloadFile = folder.appendingPathComponent("chain.json")
        try KiwiBridge.encode(KiwiBridge.WorkloadDocument(workload)).write(to: workloadFile)
        var solver = CassowarySolver()
        for constraint in workload.constraints { _ = try solver.addConstraint(constraint) }

        let chain = workload.constraints
        let sequenceFile = folder.appendingPathComponent("sequence.json")
        let steps: [[IncrementalPassSolver.RowStep]] = [
            chain.enumerated().map { .add(key: $0.offset, row: $0.element) },
            [.setConstant(key: 0, constant: -20)],
            [.remove(key: 1)],
        ]
        try KiwiBridge.encode(KiwiBridge.SequenceDocument(name: "chain", rowSteps: steps)).write(to: sequenceFile)

        let driver = repositoryRoot.appendingPathComponent("scripts/kiwi/driver.py").path
        let result = Self.run([python, driver, "--time-limit", "30", workloadFile.path, sequenceFile.path])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map { Data($0.utf8) }
        try #require(lines.count == 2)
        let added = try KiwiBridge.decodeReply(lines[0])
        #expect(added.rejected == 0)
        #expect(!added.timedOut)
        let values = try #require(added.values)
        #expect(values.count == workload.variableCount)
        for (index, value) in values.enumerated() {
            #expect(abs(value - solver.value(of: Variable(index))) < 1e-9, "variable \(index)")
        }
        let sequence = try KiwiBridge.decodeReply(lines[1])
        #expect(sequence.passSeconds?.count == 3)
        #expect(sequence.rejected == 0)
    }

    static func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        do { try process.run() } catch { return (-1, "", "\(error)") }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
