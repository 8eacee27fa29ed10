import BackendContract
import ExactSimplex
import Foundation
import Generator
import LayoutModel
import Testing
@testable import FloatSimplex

/// The float backend's incremental path through update sequences (spec §7): every pass must
/// be what a fresh solve of the pass's system gives, so each is compared with the exact
/// backend on that system alone (status, broken set — §5.1's greedy walk —, objective,
/// determined values, an irreducible conflict).
@Suite struct IncrementalPassTests {
    /// Compares the incremental answers of every pass with the exact backend's fresh solve.
    func checkEveryPass(_ sequence: UpdateSequence, name: String) throws {
        let incremental = CassowaryBackend().solve(sequence, budget: .unlimited)
        #expect(incremental.passes.count == sequence.passCount)
        let agreement = ExactAgreementTests()
        try sequence.forEachPass { pass, system in
            let outcome = incremental.passes[pass]
            let float = try outcome.result.get().solution
            let exact = try ExactSimplexBackend().solve(system, budget: Budget(wallTime: .seconds(20))).solution
            guard exact.status != .budgetExceeded else { return }
            _ = try agreement.checkAgreement(float, exact, system: system, name: "\(name) pass \(pass + 1)")
        }
    }

    static let header = """
        root superview 375 667
        view card
        view badge in card
        card.left == superview.left + 20
        card.top == superview.top + 20
        card.width == 300
        card.height == 200
        badge.width == 20
        badge.height == 20 @750
        card.centerX == superview.centerX @250
        view title in card intrinsic 120 21
        named: title.top == card.top + 8

        """

    /// The shared spec's §7 example after a system that has its names.
    @Test func sharedSpecExample() throws {
        let spec = try String(contentsOfFile: repositoryRoot.path + "/docs/layout-format.md", encoding: .utf8)
        let section = try #require(spec.range(of: "## 7. Update sequences"))
        let blockStart = try #require(spec.range(of: "```\n", range: section.upperBound..<spec.endIndex))
        let blockEnd = try #require(spec.range(of: "```", range: blockStart.upperBound..<spec.endIndex))
        let example = String(spec[blockStart.upperBound..<blockEnd.lowerBound])
        try checkEveryPass(LayoutParser.parseSequence(Self.header + example), name: "spec §7")
    }

    /// Hand-written walks: a broken constraint becomes satisfiable, a kept one is taken out
    /// because an earlier one came back, a constant change breaks a constraint or mends one.
    /// View `a` at the root's origin, 10 high: its width is what the walks fight over.
    static let pinned = "root r 400 400\nview a\na.left == r.left\na.top == r.top\na.height == 10"

    static let walks: [(String, String)] = [
        ("removal mends a broken constraint", """
            \(pinned)
            w1: a.width == 100
            w2: a.width == 200
            layout
            remove w1
            layout
            w3: a.width == 100
            layout
            remove w2
            """),
        ("the mended constraint pushes a later kept one out", """
            \(pinned)
            w1: a.width == 100
            w2: a.width == 50
            w3: a.width >= 80
            layout
            remove w1
            layout
            set w2 constant 90
            layout
            set w2 constant 10
            """),
        ("a constant change breaks an earlier-kept one and mends it", """
            \(pinned)
            w1: a.width <= 150
            w2: a.width == 100
            layout
            set w1 constant 50
            layout
            set w1 constant 120
            layout
            set w2 constant 130
            layout
            set w2 constant 20
            set w1 constant 10
            """),
        // The walk retries a broken row only when it or a held row of its conflict changed
        // this pass: each pass below changes one such row and nothing else that could mend it.
        ("broken rows come back exactly when their conflict changes", """
            \(pinned)
            w1: a.width == 100
            w2: a.width == 200
            w3: a.width >= 150
            h1: a.top == r.top + 0
            layout
            remove h1
            layout
            w4: a.width == 120
            layout
            remove w1
            layout
            set w2 constant 120
            layout
            set w4 constant 90
            layout
            w5: a.width <= 130
            layout
            set w3 constant 100
            """),
        // The first pass adds in the one-shot solve's order: w4 is pulled ahead of w2 (the
        // row that first names b.width), so w3 fails with a row from further on held, and the
        // first pass takes w4 back and walks on in the file's order (``AdditionWalk``).
        ("the first pass takes a pulled-forward link back", """
            \(pinned)
            view b
            w1: a.width == 10
            w2: b.width >= 0
            w3: b.width <= 5
            w4: b.width == a.width
            layout
            set w3 constant 20
            layout
            set w3 constant 5
            layout
            remove w1
            """),
        ("rotation and intrinsic sizes", """
            root r 375 667
            view a intrinsic 100 20
            view b intrinsic 50 20
            a.leading == r.leading + 16
            b.leading == a.trailing + 8
            r.trailing == b.trailing + 16 @999
            a.top == r.top + 20
            b.top == a.top
            layout
            set r 667 375
            layout
            set a intrinsic 400 20
            layout
            set b intrinsic - 30
            set r 375 667
            layout
            set a intrinsic 10 10
            set b intrinsic 60 20
            """),
        ("priorities between existing levels", """
            \(pinned)
            p1: a.width == 100 @250
            p2: a.width == 200 @750
            layout
            set p1 priority 800
            layout
            set p2 priority 999
            layout
            set p2 priority 1
            layout
            set p1 priority 500.5
            """),
        ("views come and go", """
            root r 400 400
            view a
            a.left == r.left
            a.top == r.top
            a.width == 100
            a.height == 10
            layout
            view b in a intrinsic 30 10
            b.left == a.left + 5
            b.top == a.bottom + 5
            layout
            remove view a
            view c intrinsic 5 5
            c.left == r.left
            c.top == r.top
            layout
            c.width == 100
            c.width == 120
            """),
    ]

    @Test(arguments: walks.indices)
    func handWrittenWalks(_ index: Int) throws {
        let (name, text) = Self.walks[index]
        try checkEveryPass(LayoutParser.parseSequence(text), name: name)
    }

    /// A pass whose budget runs out answers `budgetExceeded`; the next pass starts afresh from
    /// the system as it stands and is right again.
    @Test func aSpentBudgetIsRecoveredFrom() throws {
        let family = try #require(SequenceFamilies.named("random-steps"))
        let form = try #require(Families.named("form"))
        let sequence = try #require(generateSequence(family: family, base: form, size: 12, steps: 8, seed: 5)).sequence
        var driver = IncrementalPassSolver(sequence: sequence)
        let first = try driver.solveNextPass([], budget: Budget(iterations: 0))
        #expect(first.solution.status == .budgetExceeded)
        for (k, steps) in sequence.updates.enumerated() {
            let answer = try driver.solveNextPass(steps).solution
            let exact = try ExactSimplexBackend().solve(sequence.system(atPass: k + 1), budget: .unlimited).solution
            #expect(answer.status == exact.status && answer.broken == exact.broken, "pass \(k + 2)")
            #expect(zip(answer.objective, exact.objective).allSatisfy { abs($0 - $1) < 1e-6 }, "pass \(k + 2)")
        }
    }

    /// Without the objective (what the per-step benchmark asks), every pass still has the
    /// same values, status and broken list, and an empty objective.
    @Test func passesWithoutTheObjectiveAgreeOnEverythingElse() throws {
        let form = try #require(Families.named("form"))
        for name in ["conflict-then-remove", "random-steps"] {
            let family = try #require(SequenceFamilies.named(name))
            let sequence = try #require(generateSequence(family: family, base: form, size: 8, steps: 24, seed: 3)).sequence
            var full = IncrementalPassSolver(sequence: sequence, reportsAmbiguity: false)
            var bare = IncrementalPassSolver(sequence: sequence, reportsAmbiguity: false)
            bare.reportsObjective = false
            for (k, steps) in ([[]] + sequence.updates).enumerated() {
                let a = try full.solveNextPass(steps).solution
                let b = try bare.solveNextPass(steps).solution
                #expect(b.objective.isEmpty, "\(name) pass \(k + 1)")
                #expect(a.status == b.status && a.broken == b.broken && a.values == b.values, "\(name) pass \(k + 1)")
            }
        }
    }

    /// A pass after no steps gives the same answer again.
    @Test func emptyPassRepeatsTheAnswer() throws {
        let sequence = try LayoutParser.parseSequence(Self.header + "layout\nlayout\n")
        let passes = CassowaryBackend().solve(sequence, budget: .unlimited).passes
        #expect(passes.count == 2)
        #expect(try passes[0].result.get().solution == passes[1].result.get().solution)
    }

    /// Every sequence family on small systems of several base families, many seeds.
    @Test(arguments: SequenceFamilies.all.map(\.name))
    func generatedSequencesAgreeOnEveryPass(_ familyName: String) throws {
        let family = try #require(SequenceFamilies.named(familyName))
        let bases = ["form", "table-cells", "nested", "random", "conflict-early", "priority-ties", "equal-spacing"]
        for base in bases {
            for seed in UInt64(0)..<6 {
                let baseFamily = try #require(Families.named(base))
                guard let generated = generateSequence(family: family, base: baseFamily, size: 3, steps: 12, seed: seed) else { continue }
                try checkEveryPass(generated.sequence, name: generated.description)
            }
        }
    }

    /// A resized root's rows take their constants from affine functions of the root's size
    /// (``RootAffineConstant``) instead of being lowered anew: every pass of generated
    /// rotations (and random steps, which mix resizes with constant changes, removals and
    /// priorities) answers bit for bit what lowering anew answers, with the same row steps.
    /// (Every resize also checks, in debug builds, each constant so taken against lowering.)
    @Test(arguments: ["rotation", "random-steps"])
    func rootResizesByAffineConstantsEqualLoweringAnew(_ familyName: String) throws {
        try expectShortcutEqualsLoweringAnew(
            familyName, switchOff: { $0.usesRootAffine = false }, uses: \.rootAffineConstantsTaken)
    }

    /// A new priority moves the row to its new level in place, without lowering it anew:
    /// every pass of generated priority toggles (and random steps) answers bit for bit what
    /// lowering anew answers, with the same row steps. (Debug builds also check each row so
    /// moved against lowering it anew.)
    @Test(arguments: ["priority-toggle", "random-steps"])
    func prioritiesMovedWithoutLoweringEqualLoweringAnew(_ familyName: String) throws {
        try expectShortcutEqualsLoweringAnew(
            familyName, switchOff: { $0.movesPrioritiesWithoutLowering = false }, uses: \.prioritiesMovedWithoutLowering)
    }

    /// A tableau that a pass's additions left denser than twice the constraints is rebuilt
    /// from them at the end of the pass (``CassowarySolver/refactorIfDenserThanConstraints(allowance:)``,
    /// here with an allowance that has every pass of these small systems try it, and keep it
    /// whenever it moves nothing): every pass then answers bit for bit what the never-rebuilt
    /// tableau answers, with the same row steps, and the rebuild is taken. Seven base families, through the families that change constants, intrinsic
    /// sizes, priorities, the root and the rows.
    @Test(arguments: ["cell-reuse", "drag", "text-editing", "rotation", "priority-toggle", "rows-insert-delete"])
    func denseTableauRebuiltAfterAdditionsEqualsKeepingIt(_ familyName: String) throws {
        try expectShortcutEqualsLoweringAnew(
            familyName,
            switchOn: { $0.denseTableauAllowance = Self.everyPass }, switchOff: { $0.refactorsDenseTableau = false },
            uses: \.solver.denseRefactorsKept, size: 20, steps: 12, seeds: 0..<2)
    }

    /// The first pass adds every row in the one-shot solve's order (``AdditionWalk``): the
    /// tableau a 100-cell table's first pass leaves is no denser than twice its constraints,
    /// so no rebuild is needed (with the required rows walked first and the optional rows
    /// after them, the additions left three times the terms a rebuild kept), and the next pass
    /// answers as the never-rebuilt tableau does.
    @Test func firstPassLeavesASparseTableau() throws {
        try compareCellReuseRebuiltWithKept(size: 100, steps: 2, seed: 1, reportsAmbiguity: false) { pass, rebuilt, kept in
            guard pass == 0 else { return }
            #expect(rebuilt.solver.denseRefactorsKept == 0)
            #expect(kept.solver.tableau.termCount <= 2 * kept.solver.originalTerms,
                    "terms \(kept.solver.tableau.termCount), constraints' \(kept.solver.originalTerms)")
        }
    }

    /// An allowance below any tableau's size: every pass tries the rebuild.
    static let everyPass = -(1 << 40)

    /// The ambiguity estimate reads the tableau's columns and its rows' magnitudes: after a
    /// rebuild it still marks what it marks on the never-rebuilt tableau (12 table cells, a
    /// rebuild tried every pass).
    @Test func denseTableauRebuiltKeepsTheAmbiguityEstimate() throws {
        let rebuilt = try compareCellReuseRebuiltWithKept(
            size: 12, steps: 4, seed: 2, reportsAmbiguity: true, allowance: Self.everyPass) { _, _, _ in }
        #expect(rebuilt.solver.denseRefactorsKept > 0)
    }

    /// Runs a generated cell-reuse sequence (table-cells base) through a driver that rebuilds
    /// a dense tableau (with `allowance`, when given) and one that never does, expects every
    /// pass's answer equal bit for bit, lets `afterPass` look at both drivers, and returns the
    /// rebuilding one.
    @discardableResult
    private func compareCellReuseRebuiltWithKept(
        size: Int, steps: Int, seed: UInt64, reportsAmbiguity: Bool, allowance: Int? = nil,
        afterPass: (Int, IncrementalPassSolver, IncrementalPassSolver) -> Void
    ) throws -> IncrementalPassSolver {
        let family = try #require(SequenceFamilies.named("cell-reuse"))
        let base = try #require(Families.named("table-cells"))
        let generated = try #require(generateSequence(family: family, base: base, size: size, steps: steps, seed: seed))
        var rebuilt = IncrementalPassSolver(sequence: generated.sequence, reportsAmbiguity: reportsAmbiguity)
        var kept = IncrementalPassSolver(sequence: generated.sequence, reportsAmbiguity: reportsAmbiguity)
        if let allowance { rebuilt.denseTableauAllowance = allowance }
        kept.refactorsDenseTableau = false
        for pass in 0..<generated.sequence.passCount {
            let steps = pass == 0 ? [] : generated.sequence.updates[pass - 1]
            let a = try rebuilt.solveNextPass(steps).solution
            let b = try kept.solveNextPass(steps).solution
            #expect(a == b && a.values.map(\.bitPattern) == b.values.map(\.bitPattern), "pass \(pass + 1)")
            afterPass(pass, rebuilt, kept)
        }
        return rebuilt
    }

    /// Runs `familyName`'s generated sequences on seven base families through two drivers, one
    /// with a shortcut of the incremental path switched off by `switchOff`, and expects the
    /// same status, broken list, objective and values (bit for bit) on every pass, the same row
    /// steps per pass (in any order: constants taken without lowering come first), and the
    /// shortcut counted by `uses` taken at least once, by the driver that has it only.
    private func expectShortcutEqualsLoweringAnew(
        _ familyName: String, switchOn: (inout IncrementalPassSolver) -> Void = { _ in },
        switchOff: (inout IncrementalPassSolver) -> Void,
        uses: KeyPath<IncrementalPassSolver, Int>,
        bases: [String] = ["form", "table-cells", "nested", "random", "conflict-early", "priority-ties", "equal-spacing"],
        size: Int = 5, steps: Int = 40, seeds: Range<UInt64> = 0..<4
    ) throws {
        let family = try #require(SequenceFamilies.named(familyName))
        var taken = 0
        for base in bases {
            for seed in seeds {
                let baseFamily = try #require(Families.named(base))
                guard let generated = generateSequence(family: family, base: baseFamily, size: size, steps: steps, seed: seed) else { continue }
                let sequence = generated.sequence
                var shortcut = IncrementalPassSolver(sequence: sequence, reportsAmbiguity: false)
                var lowering = IncrementalPassSolver(sequence: sequence, reportsAmbiguity: false)
                switchOn(&shortcut)
                switchOff(&lowering)
                shortcut.recordsRowSteps = true
                lowering.recordsRowSteps = true
                for pass in 0..<sequence.passCount {
                    let steps = pass == 0 ? [] : sequence.updates[pass - 1]
                    let a = try shortcut.solveNextPass(steps).solution
                    let b = try lowering.solveNextPass(steps).solution
                    #expect(a.status == b.status && a.broken == b.broken, "\(generated.description) pass \(pass + 1)")
                    #expect(a.objective == b.objective, "\(generated.description) pass \(pass + 1)")
                    #expect(a.values.map(\.bitPattern) == b.values.map(\.bitPattern), "\(generated.description) pass \(pass + 1)")
                }
                func counted(_ steps: [[IncrementalPassSolver.RowStep]]) -> [[IncrementalPassSolver.RowStep: Int]] {
                    steps.map { pass in pass.reduce(into: [:]) { counts, step in counts[step, default: 0] += 1 } }
                }
                #expect(counted(shortcut.rowSteps) == counted(lowering.rowSteps), "\(generated.description)")
                #expect(lowering[keyPath: uses] == 0)
                taken += shortcut[keyPath: uses]
            }
        }
        #expect(taken > 0)
    }

    /// A driver (no ambiguity estimate) that has answered the first pass of `familyName`'s
    /// steps on the form family.
    static func driverAfterFirstPass(
        _ familyName: String, size: Int, steps: Int, seed: UInt64
    ) throws -> (IncrementalPassSolver, UpdateSequence) {
        let family = try #require(SequenceFamilies.named(familyName))
        let form = try #require(Families.named("form"))
        let generated = try #require(generateSequence(family: family, base: form, size: size, steps: steps, seed: seed))
        var driver = IncrementalPassSolver(sequence: generated.sequence, reportsAmbiguity: false)
        _ = try driver.solveNextPass([])
        return (driver, generated.sequence)
    }

    /// The incremental path never rebuilds from scratch on the realistic families: the
    /// solver's pivots per pass stay small and its storage does not grow with the passes.
    @Test(arguments: ["drag", "priority-toggle", "cell-reuse", "keyboard"])
    func longSequencesKeepStorageFlat(_ familyName: String) throws {
        var (driver, sequence) = try Self.driverAfterFirstPass(familyName, size: 20, steps: 2_000, seed: 3)
        var sizes: [Int] = []
        for (k, steps) in sequence.updates.enumerated() {
            _ = try driver.solveNextPass(steps)
            if k % 500 == 499 { sizes.append(driver.solver.storedTermCount + driver.solver.symbolCount) }
        }
        #expect(sizes.count == 4)
        #expect(sizes.max()! <= 2 * sizes.min()!, "\(familyName): storage \(sizes)")
    }

    /// 100,000 passes of a drag (its generated steps, cycled): the solver's symbols,
    /// constraint ids, constraints and undo list after the last pass are those after the
    /// 10,000th (nothing accumulates: no leaked rows, symbols or journal entries), its terms
    /// stay within what the first 10,000 passes needed, and the last answer is still the
    /// same system's fresh solve. (Debug builds check the invariants on every call, so the
    /// system is small; `bench-incremental --sequences … --steps 100000` shows the same on
    /// 100 and 1,000 views in release.)
    @Test func aHundredThousandStepsKeepStorageFlat() throws {
        let familyName = "drag"
        let family = try #require(SequenceFamilies.named(familyName))
        let form = try #require(Families.named("form"))
        let generated = try #require(generateSequence(family: family, base: form, size: 2, steps: 1_000, seed: 7))
        let updates = generated.sequence.updates
        var driver = IncrementalPassSolver(sequence: generated.sequence, reportsAmbiguity: false)
        driver.reportsConflict = false
        _ = try driver.solveNextPass([])
        func footprint(_ driver: IncrementalPassSolver) -> [Int] {
            [driver.solver.storedTermCount, driver.solver.symbolCount, driver.solver.recordCapacity,
             driver.solver.constraintCount, driver.solver.tableau.journal.count]
        }
        var atTenThousand: [Int] = []
        var largest = [Int](repeating: 0, count: 5)
        var last = BackendResult(solution: Solution(status: .optimal, values: []), statistics: SolveStatistics())
        for pass in 1...100_000 {
            last = try driver.solveNextPass(updates[(pass - 1) % updates.count])
            if pass >= 10_000 && pass % 1_000 == 0 {
                let now = footprint(driver)
                if pass == 10_000 { atTenThousand = now }
                largest = zip(largest, now).map { max($0, $1) }
            }
        }
        #expect(footprint(driver)[1...] == atTenThousand[1...], "\(familyName): symbols, ids, constraints, journal")
        // Terms come and go with refactorisations and compactions; they stay within what the
        // first 10,000 passes needed.
        #expect(largest[0] <= 2 * atTenThousand[0], "\(familyName): terms stored \(largest[0]) against \(atTenThousand[0])")
        let fresh = try CassowaryBackend().solve(driver.current, budget: .unlimited).solution
        #expect(last.solution.status == fresh.status)
        for (a, b) in zip(last.solution.values, fresh.values) { #expect(abs(a - b) <= 1e-6 * max(1, abs(b))) }
    }

    /// Families that add and remove rows and views: retired symbols, constraint ids and
    /// removed views' variable numbers are recycled, so the solver's storage is bounded by
    /// the largest system it has held, not by the steps taken.
    @Test(arguments: ["rows-insert-delete", "random-steps", "conflict-then-remove", "readd-after-conflict"])
    func addingAndRemovingKeepsStorageBoundedByTheLiveSystem(_ familyName: String) throws {
        var (driver, sequence) = try Self.driverAfterFirstPass(familyName, size: 6, steps: 800, seed: 5)
        var largestVariables = driver.current.variableCount
        var largestConstraints = driver.current.constraints.count
        for (k, steps) in sequence.updates.enumerated() {
            _ = try driver.solveNextPass(steps)
            largestVariables = max(largestVariables, driver.current.variableCount)
            largestConstraints = max(largestConstraints, driver.current.constraints.count)
            // Per constraint a marker and at most one more symbol; per variable one symbol.
            let bound = largestVariables + 2 * largestConstraints
            #expect(driver.solver.symbolCount <= bound, "\(familyName) pass \(k + 2): \(driver.solver.symbolCount) symbols, bound \(bound)")
            #expect(driver.solver.recordCapacity <= largestConstraints,
                    "\(familyName) pass \(k + 2): \(driver.solver.recordCapacity) record ids, at most \(largestConstraints) held")
            if driver.solver.symbolCount > bound { break }
        }
        driver.solver._checkInvariants()
        #expect(sequence.updates.count >= 400, "\(familyName): a long sequence")
        // Symbol and terms stored: within a constant factor of the live system's size.
        let live = driver.current.variableCount + 2 * driver.current.constraints.count
        #expect(driver.solver.storedTermCount <= 16 * max(largestVariables + 2 * largestConstraints, live) + 1_024,
                "\(familyName): \(driver.solver.storedTermCount) terms stored")
    }
}

/// The incremental calls are atomic: a call that fails leaves the solver as it was.
@Suite struct AtomicUpdateTests {
    @Test func infeasibleConstantChangeChangesNothing() throws {
        var solver = CassowarySolver()
        let x = constraint([(0, 1)], -100, .equal)
        let bound = constraint([(0, 1)], -150, .lessThanOrEqual)
        let weak = constraint([(1, 1), (0, -1)], 0, .equal, level: 1)
        try solver.addConstraint(x)
        let b = try solver.addConstraint(bound)
        try solver.addConstraint(weak)
        let before = (solver.value(of: Variable(0)), solver.value(of: Variable(1)), solver.constraint(b))
        #expect(throws: CassowaryError.self) { try solver.setConstant(b, to: -50) }
        #expect(solver.value(of: Variable(0)) == before.0 && solver.value(of: Variable(1)) == before.1)
        #expect(solver.constraint(b) == before.2)
        // And the solver still works: a feasible change goes through.
        try solver.setConstant(b, to: -120)
        #expect(solver.value(of: Variable(0)) == 100)
    }

    /// A strength moved in place gives what a fresh solver with the new levels gives, and
    /// toggling it back and forth makes no symbols.
    @Test func strengthChangesInPlace() throws {
        let rows = [
            constraint([(0, 1)], -100, .equal, level: 2),
            constraint([(0, 1)], -200, .equal, level: 3),
            constraint([(1, 1), (0, -1)], -8, .greaterThanOrEqual, level: 1),
            constraint([(1, 1)], -150, .lessThanOrEqual, level: 3),
        ]
        var solver = CassowarySolver()
        let handles = try rows.map { try solver.addConstraint($0) }
        let symbols = solver.symbolCount
        for (index, level) in [(0, 4), (1, 2), (3, 1), (0, 2), (2, 5), (1, 3)] {
            try solver.setStrength(handles[index], to: Strength(level: level))
            var fresh = CassowarySolver()
            for (k, row) in rows.enumerated() {
                var row = row
                row.strength = try #require(solver.constraint(handles[k])).strength
                try fresh.addConstraint(row)
            }
            // The optimum need not be one point (levels can tie): its objective is.
            let (a, b) = (solver.objective(levelCount: 5), fresh.objective(levelCount: 5))
            #expect(zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 }, "after level \(level) on row \(index): \(a) vs \(b)")
        }
        #expect(solver.symbolCount == symbols)
        #expect(throws: CassowaryError.self) { try solver.setStrength(handles[0], to: .required) }
    }

    @Test func budgetPerCallDoesNotRunOut() throws {
        var solver = CassowarySolver(budget: Budget(iterations: 50), perCall: true)
        for k in 0..<200 {
            try solver.addConstraint(constraint([(k, 1)], -Double(k), .equal, level: 1))
            try solver.addConstraint(constraint([(k, 1)], 0, .greaterThanOrEqual))
        }
        #expect(solver.constraintCount == 400)
    }

    @Test func failedRemovalChangesNothing() throws {
        var solver = CassowarySolver(budget: Budget(iterations: 1_000_000))
        var handles: [ConstraintHandle] = []
        for k in 0..<30 {
            handles.append(try solver.addConstraint(constraint([(k, 1), (k + 1, -1)], 10, .lessThanOrEqual)))
            try solver.addConstraint(constraint([(k, 1)], -Double(k * 3), .equal, level: 1 + k % 3))
        }
        // A budget of no pivots: the removal either needs none or fails and changes nothing.
        solver.restartBudget(Budget(iterations: 0))
        for handle in handles.reversed() {
            let values = (0..<31).map { solver.value(of: Variable($0)) }
            do {
                try solver.removeConstraint(handle)
            } catch {
                #expect(error == .budgetExceeded)
                #expect((0..<31).map { solver.value(of: Variable($0)) } == values)
                #expect(solver.hasConstraint(handle))
                break
            }
        }
    }
}
