import ExactArithmetic
import Foundation
import LayoutModel

/// The outcome of checking a certificate.
public enum CertificateVerdict: Sendable, Hashable, CustomStringConvertible {
    /// Every claim the certificate covers holds, checked exactly.
    case verified
    /// The reasons the certificate (or the solution) failed, in the order found.
    case rejected([String])

    public var isVerified: Bool { self == .verified }

    public var description: String {
        switch self {
        case .verified: return "verified"
        case .rejected(let reasons): return "rejected: " + reasons.joined(separator: "; ")
        }
    }
}

/// Checks, in exact arithmetic, that a solution of a system is what its certificate says:
///
/// - the point (`Solution.exactValues`) satisfies every required constraint not listed
///   as broken;
/// - each broken constraint is infeasible together with the constraints kept before it
///   (a Farkas certificate over exactly those), so the greedy walk of spec §5.1 is right;
/// - the conflict contains the first broken constraint, is infeasible (Farkas) and
///   irreducible (for each member, a point satisfying all the others);
/// - for each level `k`, the point's error sum equals the claimed `E_k*`, which the
///   solution reports, and a dual certificate proves that no point of the kept set
///   with `E_i ≤ E_i*` for `i < k` does better (weak duality).
///
/// Ambiguity claims are not covered. The checker shares no code with the simplex: it
/// lowers the system with the model's own lowering and does its own arithmetic.
public enum CertificateVerifier {
    /// Decodes `certificate` (JSON) and checks it against `system` and `solution`.
    public static func verify(certificate: Data, system: ConstraintSystem, solution: Solution) -> CertificateVerdict {
        let document: CertificateDocument
        do {
            document = try JSONDecoder().decode(CertificateDocument.self, from: certificate)
        } catch let error as DecodingError {
            return .rejected(["the certificate is not readable: \(describe(error))"])
        } catch {
            return .rejected(["the certificate is not readable: \(error.localizedDescription)"])
        }
        return verify(document, system: system, solution: solution)
    }

    /// A decoding error as the place in the document (`levels[3].objective`) and what is
    /// wrong there, instead of the error's raw dump.
    static func describe(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath)): missing \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// Checks a decoded certificate against `system` and `solution`.
    public static func verify(_ document: CertificateDocument, system: ConstraintSystem, solution: Solution) -> CertificateVerdict {
        var check = Check(system: system, solution: solution)
        check.run(document)
        return check.problems.isEmpty ? .verified : .rejected(check.problems)
    }
}

/// One verification, collecting every problem it finds.
private struct Check {
    let system: ConstraintSystem
    let solution: Solution
    let rows: [LinearRow<Rational>]
    let levelCount: Int
    /// The optional rows of each level (index 0 unused).
    let rowsByLevel: [[Int]]
    /// Whether the document lists each level's `ν` sparsely (version 2 and later).
    var sparseLevelMultipliers = true
    /// The document's format.
    var format = CertificateDocument.supportedFormat
    var problems: [String] = []

    init(system: ConstraintSystem, solution: Solution) {
        self.system = system
        self.solution = solution
        let lowered = system.lowered(as: Rational.self)
        rows = lowered.rows
        levelCount = lowered.levels.count
        var byLevel = [[Int]](repeating: [], count: levelCount + 1)
        for (r, row) in rows.enumerated() where row.level > 0 && row.level <= levelCount { byLevel[row.level].append(r) }
        rowsByLevel = byLevel
    }

    mutating func fail(_ message: String) {
        problems.append(message)
    }

    mutating func run(_ document: CertificateDocument) {
        guard CertificateDocument.supportedFormats.contains(document.format) else {
            return fail("unknown certificate format \(document.format)")
        }
        format = document.format
        sparseLevelMultipliers = document.format != CertificateDocument.denseLevelsFormat
        guard document.status == solution.status else {
            return fail("the certificate is for status \(document.status.rawValue), the solution has \(solution.status.rawValue)")
        }
        guard solution.status != .budgetExceeded else { return fail("a budget-exceeded solve certifies nothing") }
        guard let point = rationals(solution.exactValues ?? [], what: "the solution's exact values"),
            point.count == system.variableCount
        else {
            return fail("the solution carries no exact point of \(system.variableCount) values")
        }
        for (value, double) in zip(point, solution.values) where value.doubleValue != double {
            fail("a value \(double) is not the nearest Double to its exact value \(value)")
        }

        let required = rows.indices.filter { rows[$0].level == 0 }
        let brokenList = solution.broken
        let brokenSet = Set(brokenList)
        if brokenList != brokenList.sorted() || brokenSet.count != brokenList.count || !brokenSet.isSubset(of: required) {
            fail("the broken list is not a sorted list of distinct required constraints")
        }
        if (solution.status == .unsatisfiable) != !brokenList.isEmpty {
            fail("status \(solution.status.rawValue) with \(brokenList.count) broken constraints")
        }
        let kept = required.filter { !brokenSet.contains($0) }
        for r in kept where !holds(r, at: point) {
            fail("kept constraint \(name(r)) does not hold at the solution")
        }

        checkBroken(document.broken, kept: kept)
        checkConflict(document.conflict)
        checkLevels(document.levels, kept: Set(kept), point: point)
    }

    // MARK: The walk and the conflict

    mutating func checkBroken(_ certificates: [CertificateDocument.BrokenConstraint], kept: [Int]) {
        guard certificates.map(\.constraint) == solution.broken else {
            return fail("the broken certificates are not for the broken list")
        }
        for certificate in certificates {
            let r = certificate.constraint
            let allowed = Set(kept.filter { $0 < r }).union([r])
            checkFarkas(certificate.farkas, allowed: allowed, what: "broken \(name(r))")
        }
    }

    mutating func checkConflict(_ certificate: CertificateDocument.Conflict?) {
        let conflict = solution.conflict
        guard let first = solution.broken.first else {
            if !conflict.isEmpty || certificate != nil { fail("a conflict without broken constraints") }
            return
        }
        guard let certificate else { return fail("no conflict certificate") }
        let members = Set(conflict)
        if conflict != conflict.sorted() || members.count != conflict.count
            || !members.allSatisfy({ rows.indices.contains($0) && rows[$0].level == 0 })
        {
            return fail("the conflict is not a sorted set of required constraints")
        }
        if !members.contains(first) { fail("the conflict does not contain the first broken constraint") }
        checkFarkas(certificate.farkas, allowed: members, what: "the conflict")
        if certificate.independentRows == true {
            guard format == CertificateDocument.supportedFormat else {
                return fail("independentRows in a \(format) certificate (version 3 and later only)")
            }
            checkIndependence(conflict, farkas: certificate.farkas)
            return
        }
        var witnessed = Set<Int>()
        for witness in certificate.witnesses {
            guard members.contains(witness.omitted),
                let point = rationals(witness.values, what: "a witness"), point.count == system.variableCount
            else {
                fail("a malformed witness for \(witness.omitted)")
                continue
            }
            for r in conflict where r != witness.omitted && !holds(r, at: point) {
                fail("the witness without \(name(witness.omitted)) violates \(name(r))")
            }
            witnessed.insert(witness.omitted)
        }
        if witnessed != members { fail("the conflict's irreducibility is not witnessed for every member") }
    }

    /// The conflict's irreducibility by independence: its members' rows `(a_r, c_r)` are
    /// linearly independent, and the Farkas vector names every member. Then that vector is
    /// the only one on the members up to scale, so no proper subset has one, and by Farkas'
    /// lemma each is feasible. (A vector naming fewer members would prove a smaller subset
    /// infeasible: the conflict would not be irreducible.)
    mutating func checkIndependence(_ conflict: [Int], farkas: CertificateDocument.Farkas) {
        let named = Set(farkas.multipliers.compactMap { multiplier in
            Rational(multiplier.value).flatMap { $0.isZero ? nil : multiplier.constraint }
        })
        if named != Set(conflict) { fail("the conflict's Farkas multipliers do not name every member") }
        let constantColumn = system.variableCount
        let sparse = conflict.map { r -> LinearIndependence.SparseRow in
            rows[r].terms.map { ($0.variable, $0.coefficient) } + [(constantColumn, rows[r].constant)]
        }
        // Bounded, as a certificate is input: four times what the backend allows itself on
        // the same rows in the same order (it claims independence only within its limit).
        let entries = sparse.reduce(0) { $0 + $1.count }
        let workLimit = 4 * (64 * entries + 4096)
        switch LinearIndependence.areIndependent(sparse, workLimit: workLimit) {
        case true?: break
        case false?: fail("the conflict's rows are not linearly independent, as independentRows claims")
        case nil: fail("the conflict's rows could not be shown independent within \(workLimit) elimination steps")
        }
    }

    /// λ_r ≥ 0 on `<=`, ≤ 0 on `>=`, free on `==`, on required rows in `allowed` only;
    /// Σ λ_r a_r = 0 and Σ λ_r c_r > 0.
    mutating func checkFarkas(_ farkas: CertificateDocument.Farkas, allowed: Set<Int>, what: String) {
        guard let multipliers = multiplierMap(farkas.multipliers, what: what) else { return }
        var combination: [Int: Rational] = [:]
        var constant = Rational.zero
        for (r, lambda) in multipliers {
            guard allowed.contains(r), rows[r].level == 0 else {
                return fail("\(what): a multiplier on \(name(r)), outside the constraints it may use")
            }
            if !signAllowed(lambda, rows[r].relation) { return fail("\(what): the multiplier on \(name(r)) has the wrong sign") }
            accumulate(&combination, &constant, rows[r], lambda)
        }
        if combination.values.contains(where: { !$0.isZero }) {
            fail("\(what): the multipliers do not cancel every unknown")
        }
        if constant.sign <= 0 { fail("\(what): the combined constant \(constant) is not positive") }
    }

    // MARK: Levels

    mutating func checkLevels(_ certificates: [CertificateDocument.Level], kept: Set<Int>, point: [Rational]) {
        guard certificates.count == levelCount, certificates.map(\.level) == Array(1..<(levelCount + 1)) else {
            return fail("expected one level certificate for each of \(levelCount) levels")
        }
        guard let reported = rationals(solution.exactObjective ?? [], what: "the exact objective"),
            reported.count == levelCount
        else {
            return fail("the solution carries no exact objective of \(levelCount) levels")
        }
        for (value, double) in zip(reported, solution.objective) where value.doubleValue != double {
            fail("an objective \(double) is not the nearest Double to \(value)")
        }
        var errors = [Rational](repeating: .zero, count: levelCount)
        for row in rows where row.level > 0 {
            errors[row.level - 1] += error(of: row, at: point)
        }
        var optima: [Rational] = []
        for (k, certificate) in certificates.enumerated() {
            guard let optimum = Rational(certificate.objective) else {
                return fail("level \(k + 1): unreadable objective")
            }
            optima.append(optimum)
            if optimum != reported[k] { fail("level \(k + 1): the solution reports \(reported[k]), the certificate \(optimum)") }
            if optimum != errors[k] { fail("level \(k + 1): the point's error sum is \(errors[k]), not \(optimum)") }
        }
        guard optima.count == levelCount else { return }
        for certificate in certificates {
            checkLevel(certificate, kept: kept, optima: optima)
        }
    }

    /// Weak duality for level k over the kept required rows, every optional row as
    /// `d_r = p_r − n_r`, and `E_i ≤ E_i*` for `i < k` (see the module's documentation).
    mutating func checkLevel(_ certificate: CertificateDocument.Level, kept: Set<Int>, optima: [Rational]) {
        let k = certificate.level
        let what = "level \(k)"
        guard let multipliers = multiplierMap(certificate.multipliers, what: what) else { return }
        guard let nu = levelMultipliers(certificate) else { return }
        var combination: [Int: Rational] = [:]
        var bound = Rational.zero
        for (r, value) in multipliers {
            let row = rows[r]
            if row.level == 0 {
                guard kept.contains(r) else { return fail("\(what): a multiplier on broken \(name(r))") }
                if !signAllowed(value, row.relation) { fail("\(what): the multiplier on \(name(r)) has the wrong sign") }
            }
            accumulate(&combination, &bound, row, value)
        }
        if combination.values.contains(where: { !$0.isZero }) {
            fail("\(what): the multipliers do not cancel every unknown")
        }
        // The coefficients of p_r and n_r in the Lagrangian must be nonnegative. A row of
        // weight 0 without a multiplier has 0 there: only rows of level k, of a level with a
        // nonzero ν, or with a multiplier can fail (so thousands of levels stay linear).
        var weighed = rowsByLevel[k]
        for i in nu.keys { weighed += rowsByLevel[i] }
        for r in multipliers.keys where rows[r].level > 0 && rows[r].level != k && nu[rows[r].level] == nil { weighed.append(r) }
        for r in weighed.sorted() {
            let row = rows[r]
            let weight: Rational = row.level == k ? .one : (row.level < k ? nu[row.level] ?? .zero : .zero)
            let (wPositive, wNegative): (Rational, Rational)
            switch row.relation {
            case .equal: (wPositive, wNegative) = (weight, weight)
            case .lessThanOrEqual: (wPositive, wNegative) = (weight, .zero)
            case .greaterThanOrEqual: (wPositive, wNegative) = (.zero, weight)
            }
            let mu = multipliers[r] ?? .zero
            if (wPositive - mu).sign < 0 || (wNegative + mu).sign < 0 {
                fail("\(what): the multiplier on \(name(r)) is not dual feasible")
            }
        }
        for (i, value) in nu { bound.addProduct(-value, optima[i - 1]) }
        if bound != optima[k - 1] { fail("\(what): the dual bound \(bound) is not the optimum \(optima[k - 1])") }
    }

    /// A level certificate's `ν_i ≥ 0` by level `i < k`, nonzero ones only, from either
    /// form; nil (with the problem recorded, naming the entry) when malformed.
    mutating func levelMultipliers(_ certificate: CertificateDocument.Level) -> [Int: Rational]? {
        let k = certificate.level
        let what = "level \(k)"
        var nu: [Int: Rational] = [:]
        if sparseLevelMultipliers {
            guard let entries = certificate.nonzeroLevelMultipliers, certificate.levelMultipliers == nil else {
                fail("\(what): expected nonzeroLevelMultipliers (format 2) and no levelMultipliers")
                return nil
            }
            var previous = 0
            for (index, entry) in entries.enumerated() {
                let place = "\(what): nonzeroLevelMultipliers[\(index)]"
                guard entry.level > previous, entry.level < k else {
                    fail("\(place): level \(entry.level) is not above \(previous) and below \(k)")
                    return nil
                }
                guard let value = Rational(entry.value) else {
                    fail("\(place): \"\(entry.value)\" is not a rational")
                    return nil
                }
                guard value.sign >= 0 else {
                    fail("\(place): the level multiplier \(value) on level \(entry.level) is negative")
                    return nil
                }
                previous = entry.level
                if !value.isZero { nu[entry.level] = value }
            }
        } else {
            guard certificate.nonzeroLevelMultipliers == nil, let dense = certificate.levelMultipliers,
                let values = rationals(dense, what: "\(what) level multipliers"), values.count == k - 1
            else {
                fail("\(what): expected \(k - 1) level multipliers")
                return nil
            }
            if values.contains(where: { $0.sign < 0 }) {
                fail("\(what): a negative level multiplier")
                return nil
            }
            for (index, value) in values.enumerated() where !value.isZero { nu[index + 1] = value }
        }
        return nu
    }

    // MARK: Rows

    func name(_ r: Int) -> String {
        system.constraints.indices.contains(r) ? system.constraintName(r) : "#\(r)"
    }

    func holds(_ r: Int, at point: [Rational]) -> Bool {
        let d = value(of: rows[r], at: point)
        switch rows[r].relation {
        case .equal: return d.isZero
        case .lessThanOrEqual: return d.sign <= 0
        case .greaterThanOrEqual: return d.sign >= 0
        }
    }

    func value(of row: LinearRow<Rational>, at point: [Rational]) -> Rational {
        var sum = row.constant
        for term in row.terms { sum.addProduct(term.coefficient, point[term.variable]) }
        return sum
    }

    func error(of row: LinearRow<Rational>, at point: [Rational]) -> Rational {
        let d = value(of: row, at: point)
        switch row.relation {
        case .equal: return d.magnitude
        case .lessThanOrEqual: return d.sign > 0 ? d : .zero
        case .greaterThanOrEqual: return d.sign < 0 ? -d : .zero
        }
    }

    func signAllowed(_ lambda: Rational, _ relation: Relation) -> Bool {
        switch relation {
        case .equal: return true
        case .lessThanOrEqual: return lambda.sign >= 0
        case .greaterThanOrEqual: return lambda.sign <= 0
        }
    }

    func accumulate(_ combination: inout [Int: Rational], _ constant: inout Rational, _ row: LinearRow<Rational>, _ lambda: Rational) {
        for term in row.terms { combination[term.variable, default: .zero].addProduct(lambda, term.coefficient) }
        constant.addProduct(lambda, row.constant)
    }

    mutating func multiplierMap(_ list: [CertificateDocument.Multiplier], what: String) -> [Int: Rational]? {
        var map: [Int: Rational] = [:]
        for multiplier in list {
            guard rows.indices.contains(multiplier.constraint), map[multiplier.constraint] == nil,
                let value = Rational(multiplier.value)
            else {
                fail("\(what): a malformed multiplier")
                return nil
            }
            map[multiplier.constraint] = value
        }
        return map
    }

    mutating func rationals(_ strings: [String], what: String) -> [Rational]? {
        var values: [Rational] = []
        values.reserveCapacity(strings.count)
        for string in strings {
            guard let value = Rational(string) else {
                fail("\(what): \"\(string)\" is not a rational")
                return nil
            }
            values.append(value)
        }
        return values
    }
}
