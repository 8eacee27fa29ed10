import ExactArithmetic
import ExactSimplex
import LayoutModel

/// A linear program over nonnegative (and free) variables with complementarity pairs
/// `x_i · x_j = 0`, decided exactly by branch and bound.
///
/// The judge's perturbation programs need `|y|` of a variable whose sign is not known; it
/// is written `y = p − m` with `p, m ≥ 0` and `|y| = p + m`, which is exact only when one of
/// the two is zero. The LP without the pairs is a relaxation; where its solution has both
/// members of a pair positive, one branch fixes the first at zero and the other the second.
/// A node whose LP is infeasible closes its subtree, so `infeasible` is a proof; a solution
/// that satisfies every pair is a witness.
struct ComplementarityProgram {
    var program = RowLinearProgram()
    var pairs: [(Int, Int)] = []
    /// Minimised at every node: steers the LP towards solutions that satisfy the pairs.
    var steering: [Int: Rational] = [:]

    enum Result {
        /// A solution satisfying every constraint and every pair.
        case feasible([Rational])
        /// No solution: every branch is infeasible.
        case infeasible
        /// The node limit, the budget or a failed LP stopped the search.
        case undecided(String)
    }

    @discardableResult
    mutating func variable(_ domain: RowLinearProgram.Domain = .nonnegative) -> Int {
        program.addVariable(domain)
    }

    mutating func constrain(_ terms: [(Int, Rational)], _ relation: Relation, _ rhs: Rational) {
        program.addConstraint(terms.map { (variable: $0.0, coefficient: $0.1) }, relation, rhs)
    }

    /// `p` and `m` must not both be positive; both are steered towards zero.
    mutating func complementary(_ p: Int, _ m: Int) {
        pairs.append((p, m))
        steering[p, default: .zero] += .one
        steering[m, default: .zero] += .one
    }

    /// Depth-first branch and bound, at most `nodeLimit` LPs.
    func solve(nodeLimit: Int = 48) -> Result {
        var stack: [[Int]] = [[]]
        var nodes = 0
        while let fixed = stack.popLast() {
            guard nodes < nodeLimit else { return .undecided("the branch-and-bound limit of \(nodeLimit) programs was reached") }
            nodes += 1
            var node = program
            for variable in fixed { node.addConstraint([(variable: variable, coefficient: .one)], .lessThanOrEqual, .zero) }
            switch node.minimize(steering) {
            case .infeasible:
                continue
            case .optimal(let values, _):
                var branch: (Int, Int)?
                var largest = Rational.zero
                for (p, m) in pairs {
                    let overlap = min(values[p], values[m])
                    if overlap.sign > 0 && overlap > largest {
                        largest = overlap
                        branch = (p, m)
                    }
                }
                guard let (p, m) = branch else { return .feasible(values) }
                stack.append(fixed + [m])
                stack.append(fixed + [p])
            case .unbounded:
                return .undecided("a steering objective without a lower bound")
            case .budgetExceeded:
                return .undecided("an LP ran out of its budget")
            case .failed(let reason):
                return .undecided("an LP failed: \(reason)")
            }
        }
        return .infeasible
    }
}
