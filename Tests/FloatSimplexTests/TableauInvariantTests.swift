import LayoutModel
import Testing
@testable import FloatSimplex

/// The tableau's invariant checker catches a corrupted tableau, and debug builds run it after
/// the tableau's mutations.
@Suite struct TableauInvariantTests {
    /// A chain `x0 = 10`, `x(i+1) = x(i) + 5` (required), each `x(i) <= 100` (required) and
    /// `x(i) == 200` (weak, so it pivots against the bound): rows that name other basic
    /// symbols, slacks, errors and pivots.
    static func chainSolver(length: Int = 6) throws -> CassowarySolver {
        var solver = CassowarySolver()
        try solver.addConstraint(constraint([(0, 1)], -10, .equal))
        for i in 0..<length {
            try solver.addConstraint(constraint([(i + 1, 1), (i, -1)], -5, .equal))
            try solver.addConstraint(constraint([(i, 1)], -100, .lessThanOrEqual))
            try solver.addConstraint(constraint([(i, 1)], -200, .equal, level: 1))
        }
        return solver
    }

    /// A basic symbol whose row names at least one other symbol.
    static func basicWithRow(_ tableau: Tableau) -> Int? {
        tableau.symbols.indices.first { tableau.symbols[$0].isBasic && tableau.symbols[$0].rowCount > 0 }
    }

    @Test func aSolvedTableauIsConsistent() throws {
        var solver = try Self.chainSolver()
        #expect(solver.tableau.invariantViolations(betweenCalls: true) == [])
        // After a removal too (retired markers freed, rows substituted).
        try solver.removeConstraint(ConstraintHandle(id: 3))
        #expect(solver.tableau.invariantViolations(betweenCalls: true) == [])
        #expect(solver.tableau.pivots > 0)
    }

    @Test func aRowNamingItsOwnBasicSymbolIsCaught() throws {
        var tableau = try Self.chainSolver().tableau
        let basic = try #require(Self.basicWithRow(tableau))
        tableau.terms[Int(tableau.symbols[basic].rowStart)].symbol = basic
        let violations = tableau.invariantViolations(betweenCalls: true)
        #expect(violations.contains("row of \(basic) names its own basic symbol"))
    }

    @Test func aStaleColumnIndexIsCaught() throws {
        var tableau = try Self.chainSolver().tableau
        let basic = try #require(Self.basicWithRow(tableau))
        // A symbol the row does not name, listed as named by it.
        let named = Set(tableau.row(basic).terms.map(\.symbol))
        let other = try #require(tableau.symbols.indices.first { $0 != basic && !named.contains($0) })
        tableau.users.add(basic, to: other)
        let violations = tableau.invariantViolations(betweenCalls: true)
        #expect(violations.contains("stale column index: \(basic) listed as a user of \(other)"))
        #expect(violations.contains { $0.hasPrefix("column index lists") })
    }

    @Test func aWrongFreeListIsCaught() throws {
        var solver = try Self.chainSolver()
        try solver.removeConstraint(ConstraintHandle(id: 2))
        var tableau = solver.tableau
        // A symbol in use handed to the free list…
        let inUse = try #require(tableau.symbols.indices.first { tableau.symbols[$0].kind == .external })
        tableau.freeSymbols.append(inUse)
        #expect(tableau.invariantViolations(betweenCalls: true).contains("free symbol \(inUse) still in use"))
        // …and a retired one dropped from it (leaked).
        var leaking = solver.tableau
        let popped = leaking.freeSymbols.popLast()
        let retired = try #require(popped)
        #expect(leaking.invariantViolations(betweenCalls: true) == ["retired symbol \(retired) not on the free list (leaked)"])
        // Inside an attempt a retired symbol may wait for its commit.
        #expect(leaking.invariantViolations(betweenCalls: false) == [])
    }

    @Test func aWrongListSlotIsCaught() throws {
        var tableau = try Self.chainSolver().tableau
        let symbol = try #require(tableau.symbols.indices.first { !tableau.symbols[$0].isBasic && tableau.symbols[$0].kind != .retired })
        tableau.symbols[symbol].candidateSlot = 0
        let violations = tableau.invariantViolations(betweenCalls: true)
        #expect(violations.contains { $0.hasPrefix("\(symbol) records candidate slot 0") })
    }

    @Test func aStaleValueAndABrokenRankOrderAreCaught() throws {
        let solved = try Self.chainSolver().tableau
        var stale = solved
        let basic = try #require(Self.basicWithRow(stale))
        stale.symbols[basic].value += 1
        #expect(stale.invariantViolations(betweenCalls: true).contains { $0.hasPrefix("value of \(basic) is") })

        var misranked = solved
        let user = try #require(misranked.symbols.indices.first { s in
            misranked.symbols[s].isBasic && misranked.row(s).terms.contains { misranked.symbols[$0.symbol].isBasic }
        })
        misranked.symbols[user].rank = Int.min
        #expect(misranked.invariantViolations(betweenCalls: true).contains { $0.hasPrefix("row of \(user) (rank") })
    }

    @Test func theCheckerTrapsOnACorruptedTableau() async throws {
        await #expect(processExitsWith: .failure) {
            var tableau = try TableauInvariantTests.chainSolver().tableau
            tableau.termCount += 1
            tableau._checkInvariants()
        }
    }

    #if DEBUG
    /// Debug builds (CI's test run) check after every pivot and every other mutating
    /// operation, not only after each public call.
    @Test func debugBuildsCheckAfterEveryPivot() throws {
        var solver = try Self.chainSolver()
        try solver.removeConstraint(ConstraintHandle(id: 3))
        #expect(solver.tableau.pivots > 0)
        #expect(solver.tableau.mutationChecks >= solver.tableau.pivots + solver.constraintCount)
    }
    #endif
}
