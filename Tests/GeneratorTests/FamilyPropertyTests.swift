import LayoutModel
import Testing
@testable import Generator

/// Every row of the system is a required equality; feeds them all to an elimination.
func requiredEqualities(_ system: ConstraintSystem) -> (elimination: ExactElimination, outcomes: [ExactElimination.Outcome])? {
    let lowered = system.lowered(as: Fraction.self)
    guard lowered.rows.allSatisfy({ $0.isRequired && $0.relation == .equal }) else { return nil }
    var elimination = ExactElimination()
    let outcomes = lowered.rows.map { elimination.add($0) }
    return (elimination, outcomes)
}

func variable(_ system: ConstraintSystem, _ name: String, _ component: FrameComponent) throws -> Int {
    let item = try #require(system.itemIndex(named: name), "no view \(name)")
    return Unknown(item: item, component: component).variable
}

@Suite("Family properties")
struct FamilyPropertyTests {
    @Test("right-to-left variants are their base family with the direction flipped")
    func rtlVariants() throws {
        for base in RealisticFamilies.bases {
            for seed: UInt64 in [1, 2] {
                let ltr = generate(family: try family(base.name), size: 15, seed: seed).system
                var rtl = generate(family: try family(base.name + "-rtl"), size: 15, seed: seed).system
                #expect(rtl.direction == .rightToLeft)
                rtl.direction = .leftToRight
                rtl.name = ltr.name
                #expect(rtl == ltr, "\(base.name)-rtl")
                // Mirroring changes the rows: the family uses leading/trailing.
                #expect(rtl.constraints.contains { $0.first.attribute.isDirectional || $0.second?.attribute.isDirectional == true })
                #expect(!rtl.constraints.contains { $0.first.attribute.isAbsoluteHorizontal || $0.second?.attribute.isAbsoluteHorizontal == true })
            }
        }
    }

    @Test("realistic families choose portrait and landscape roots")
    func orientations() throws {
        var portrait = 0, landscape = 0
        for seed in 1...30 {
            let root = generate(family: try family("grid"), size: 4, seed: UInt64(seed)).system.root
            let frame = try #require(root.frame)
            if frame[2] < frame[3] { portrait += 1 } else { landscape += 1 }
        }
        #expect(portrait > 0 && landscape > 0)
    }

    @Test("equal-widths, grid and nested layouts are consistent and fully determined",
          arguments: ["equal-widths", "grid", "nested"])
    func determinedRealistic(name: String) throws {
        for seed: UInt64 in [1, 2, 3] {
            let system = generate(family: try family(name), size: 30, seed: seed).system
            let result = try #require(requiredEqualities(system), "\(name) has rows other than required equalities")
            #expect(!result.outcomes.contains(.inconsistent), "\(name) seed \(seed) conflicts")
            #expect(result.elimination.rank == system.variableCount, "\(name) seed \(seed) is not determined")
        }
    }

    @Test("equal-widths rows share one width")
    func equalWidths() throws {
        let system = generate(family: try family("equal-widths"), size: 20, seed: 8).system
        let result = try #require(requiredEqualities(system))
        var widths: [String: Set<Fraction>] = [:]
        for (index, item) in system.items.enumerated().dropFirst() {
            let row = String(item.name.prefix { $0 != "_" })
            let w = try #require(result.elimination.value(of: Unknown(item: index, component: .w).variable))
            widths[row, default: []].insert(w)
        }
        #expect(widths.count >= 5)
        #expect(widths.values.allSatisfy { $0.count == 1 })
    }

    @Test("form rows come from VFL: label hugging 251, labels of equal width, fields stacked")
    func form() throws {
        let system = generate(family: try family("form"), size: 12, seed: 3).system
        let vfl = system.constraints.filter { $0.origin == .visualFormat }
        #expect(vfl.count > system.constraints.count / 2)
        let labels = system.items.filter { $0.name.hasPrefix("label") }
        #expect(labels.count == 6)
        #expect(labels.allSatisfy { $0.hugging.horizontal == Priority(251) })
        let label0 = try #require(system.itemIndex(named: "label0"))
        let sameWidth = vfl.filter { $0.first.attribute == .width && $0.second == AttributeReference(item: label0, attribute: .width) }
        #expect(sameWidth.count == 5)
        #expect(vfl.contains { $0.first.attribute == .top && $0.second?.attribute == .bottom })
    }

    @Test("table cells: no constraint names a cell's height, which follows its labels")
    func tableCells() throws {
        for seed: UInt64 in 1...5 {
            let system = generate(family: try family("table-cells"), size: 40, seed: seed).system
            let cells = Set(system.items.indices.filter { system.items[$0].name.hasPrefix("cell") })
            let withLabels = cells.filter { cell in system.items.contains { $0.parent == cell } }
            #expect(!withLabels.isEmpty)
            for c in system.constraints {
                for ref in [c.first] + (c.second.map { [$0] } ?? []) where withLabels.contains(ref.item) {
                    #expect(ref.attribute != .height)
                }
            }
            for cell in withLabels {
                #expect(system.constraints.contains { $0.first == AttributeReference(item: cell, attribute: .bottomMargin) })
                #expect(system.items.filter { $0.parent == cell }.allSatisfy { $0.intrinsic.vertical != nil })
            }
        }
    }

    @Test("nested towers are deep")
    func nestedDepth() throws {
        let system = generate(family: try family("nested"), size: 60, seed: 2).system
        func depth(_ i: ItemIndex) -> Int {
            var d = 0
            var cursor = system.items[i].parent
            while let p = cursor { d += 1; cursor = system.items[p].parent }
            return d
        }
        let deepest = system.items.indices.map(depth).max() ?? 0
        #expect(deepest >= 12 && deepest <= 24)
    }

    @Test("hugging contests: the two labels of a row differ in hugging or resistance")
    func huggingContest() throws {
        let system = generate(family: try family("hugging-contest"), size: 30, seed: 6).system
        var rows = 0
        for item in system.items where item.name.hasPrefix("name") {
            let row = item.name.dropFirst(4)
            guard let other = system.itemIndex(named: "value\(row)") else { continue }
            let b = system.items[other]
            #expect(item.hugging.horizontal != b.hugging.horizontal)
            #expect(item.resistance.horizontal != b.resistance.horizontal)
            rows += 1
        }
        #expect(rows == 15)
    }

    @Test("random family: views form a tree with varied priorities, constants and multipliers")
    func randomVariety() throws {
        let system = generate(family: try family("random"), size: 400, seed: 12).system
        let priorities = Set(system.constraints.map(\.priority))
        for p in [1000, 999, 750, 251, 250, 50] { #expect(priorities.contains(Priority(p))) }
        #expect(priorities.contains { ![1000, 999, 750, 251, 250, 50].map(Priority.init).contains($0) })
        let multipliers = system.constraints.map(\.multiplier)
        #expect(multipliers.filter { $0 == .one }.count > multipliers.count * 3 / 4)
        #expect(multipliers.contains(.decimal("0.5")) && multipliers.contains(NumericLiteral(2)))
        let constants = system.constraints.map(\.constant)
        #expect(constants.contains { $0.exponent == -1 && $0.significand.hasSuffix("5") })
        #expect(constants.contains { $0.exponent <= -2 })
        #expect(system.items.contains { $0.parent != nil && $0.parent != 0 })
    }

    @Test("cassowary-benchmark: 1-3 unknowns per row, coefficients within ±5 on a 1e-4 grid, ~12% inequalities")
    func cassowaryWorkload() throws {
        let system = generate(family: try family("cassowary-benchmark"), size: 1500, seed: 5).system
        let rows = system.lowered(as: Fraction.self).rows
        #expect(rows.count == 3000)
        let grid = Fraction(1, 10_000)
        for row in rows {
            #expect((1...3).contains(row.terms.count))
            for term in row.terms {
                #expect(term.coefficient <= Fraction(5) && -term.coefficient <= Fraction(5))
                let steps = term.coefficient / grid
                #expect(steps.denominator == 1 || term.coefficient == Fraction(1, 2))
            }
        }
        let inequalities = rows.filter { $0.relation != .equal }.count
        #expect(inequalities > 270 && inequalities < 450, "\(inequalities) of 3000")
        #expect(Set(rows.map(\.terms.count)) == [1, 2, 3])
    }

    @Test("redundant-required: consistent, determined, rank below the row count")
    func redundant() throws {
        for seed: UInt64 in 1...4 {
            let system = generate(family: try family("redundant-required"), size: 24, seed: seed).system
            let result = try #require(requiredEqualities(system))
            #expect(!result.outcomes.contains(.inconsistent))
            #expect(result.elimination.rank == system.variableCount)
            #expect(result.elimination.rank < system.constraints.count)
            #expect(result.outcomes.filter { $0 == .redundant }.count >= 24)
        }
    }

    @Test("equality-cycles: consistent, determined, one redundant row per cycle")
    func equalityCycles() throws {
        for seed: UInt64 in 1...4 {
            let system = generate(family: try family("equality-cycles"), size: 30, seed: seed).system
            let result = try #require(requiredEqualities(system))
            #expect(!result.outcomes.contains(.inconsistent))
            #expect(result.elimination.rank == system.variableCount)
            #expect(result.elimination.rank < system.constraints.count)
        }
    }

    @Test("inequality-cycles: the inequalities sum to 0 <= 0, so every one is tight")
    func inequalityCycles() throws {
        for seed: UInt64 in 1...4 {
            let system = generate(family: try family("inequality-cycles"), size: 30, seed: seed).system
            let rows = system.lowered(as: Fraction.self).rows.filter { $0.relation != .equal }
            #expect(rows.count >= 20)
            var sum: [Int: Fraction] = [:]
            var constant = Fraction.zero
            for row in rows {
                let sign = row.relation == .lessThanOrEqual ? Fraction.one : -Fraction.one
                for t in row.terms { sum[t.variable] = (sum[t.variable] ?? .zero) + sign * t.coefficient }
                constant = constant + sign * row.constant
            }
            #expect(sum.values.allSatisfy { $0.isZero })
            #expect(constant.isZero)
        }
    }

    @Test("reciprocal-multipliers: near pairs miss 1 by less than 1e-9, exact pairs hit it")
    func reciprocals() throws {
        let system = generate(family: try family("reciprocal-multipliers"), size: 40, seed: 3).system
        var near = 0, exact = 0
        let sizeConstraints = system.constraints.filter { $0.second != nil && $0.first.attribute.isSize }
        for c in sizeConstraints {
            guard let second = c.second,
                  let partner = sizeConstraints.first(where: { $0.first == second && $0.second == c.first }),
                  c.multiplier > partner.multiplier else { continue }
            let product = Fraction(literal: c.multiplier) * Fraction(literal: partner.multiplier)
            if product == .one {
                exact += 1
            } else {
                near += 1
                let gap = product - .one
                #expect(gap < Fraction(1, 1_000_000_000) && -gap < Fraction(1, 1_000_000_000))
            }
        }
        #expect(near >= 20 && exact >= 3)
        #expect(system.constraints.contains { $0.multiplier == .decimal("1.536") })
        #expect(system.constraints.contains { $0.multiplier == .decimal("0.6510416666") })
        // Exactly, a near pair forces the view to 0 x 0.
        var e = ExactElimination()
        let v0 = try #require(system.itemIndex(named: "v0"))
        for row in system.lowered(as: Fraction.self).rows where row.isRequired && row.terms.allSatisfy({ Unknown(variable: $0.variable).item == v0 }) {
            _ = e.add(row)
        }
        #expect(e.value(of: Unknown(item: v0, component: .w).variable) == .zero)
        #expect(e.value(of: Unknown(item: v0, component: .h).variable) == .zero)
    }

    @Test("aspect-chain: sizes grow as 2^k, past Double's 2^53")
    func aspectChain() throws {
        let system = generate(family: try family("aspect-chain"), size: 60, seed: 1).system
        let required = ConstraintSystem(name: nil, direction: system.direction, items: system.items,
                                        constraints: system.constraints.filter(\.priority.isRequired))
        let result = try #require(requiredEqualities(required))
        #expect(!result.outcomes.contains(.inconsistent))
        let w0 = try #require(result.elimination.value(of: try variable(system, "a0_0", .w)))
        var power = Fraction.one
        for k in 0..<60 {
            let w = try #require(result.elimination.value(of: try variable(system, "a0_\(k)", .w)))
            #expect(!(w < w0 * power))
            power = power * Fraction(2)
        }
        let last = try #require(result.elimination.value(of: try variable(system, "a0_59", .w)))
        #expect(Fraction(Int128(1) << 53) < last)
    }

    @Test("extreme-constants: 1e9 and 1e-9 side by side")
    func extremeConstants() throws {
        let system = generate(family: try family("extreme-constants"), size: 30, seed: 2).system
        let numbers = system.constraints.flatMap { [$0.constant, $0.multiplier] }
        #expect(numbers.contains(.decimal("1e9")))
        #expect(numbers.contains(.decimal("1e-9")))
        #expect(numbers.contains(.decimal("1000000000.000000001")))
    }

    @Test("near-conflicts: every view has a required pair of bounds exactly 1e-9 apart; the second view's is infeasible")
    func nearConflicts() throws {
        let system = generate(family: try family("near-conflicts"), size: 20, seed: 4).system
        let epsilon = Fraction(1, 1_000_000_000)
        for view in 1...system.viewCount {
            let own = system.constraints.filter { $0.first.item == view }
            var found = false
            for a in own {
                for b in own where a.first == b.first && a.second == b.second && a.multiplier == b.multiplier {
                    let gap = Fraction(literal: b.constant) - Fraction(literal: a.constant)
                    if gap == epsilon { found = true }
                }
            }
            #expect(found, "view \(view)")
        }
        let second = system.constraints.filter { $0.first.item == 2 && $0.first.attribute == .width }
        let lower = try #require(second.first { $0.relation == .greaterThanOrEqual })
        let upper = try #require(second.first { $0.relation == .lessThanOrEqual })
        #expect(upper.constant < lower.constant)
    }

    @Test("priority-ties: one optional level holds every preference, conflicting")
    func priorityTies() throws {
        let system = generate(family: try family("priority-ties"), size: 20, seed: 9).system
        let optional = system.constraints.filter { !$0.priority.isRequired }
        #expect(Set(optional.map(\.priority)).count == 1)
        for view in 1...system.viewCount {
            let widths = optional.filter { $0.first.item == view && $0.first.attribute == .width }
            #expect(widths.count >= 3)
            #expect(Set(widths.map(\.constant)).count >= 2)
        }
    }

    @Test("almost-required: 999 (or 999.9999999) against 1000 on the same width")
    func almostRequired() throws {
        let system = generate(family: try family("almost-required"), size: 20, seed: 9).system
        var sawFraction = false
        for view in 1...system.viewCount {
            let widths = system.constraints.filter { $0.first.item == view && $0.first.attribute == .width }
            let required = try #require(widths.first { $0.priority.isRequired })
            let almost = try #require(widths.first { !$0.priority.isRequired })
            #expect(almost.priority >= Priority(999) && almost.priority < .required)
            #expect(almost.constant != required.constant)
            if almost.priority > Priority(999) { sawFraction = true }
        }
        #expect(sawFraction)
    }

    @Test("weak-crowd: weighted sums favour the crowd, lexicographic priorities the single constraint")
    func weakCrowd() throws {
        let system = generate(family: try family("weak-crowd"), size: 25, seed: 10).system
        for view in 1...system.viewCount {
            let widths = system.constraints.filter { $0.first.item == view && $0.first.attribute == .width }
            let top = try #require(widths.map(\.priority).max())
            let strong = widths.filter { $0.priority == top }
            #expect(strong.count == 1)
            let lexicographic = Fraction(literal: strong[0].constant)
            // Minimising Σ priority × |w - target| puts w at a weighted median.
            let weighted = widths.map { (Fraction(literal: $0.constant), Fraction(literal: $0.priority.value)) }
                .sorted { $0.0 < $1.0 }
            let total = weighted.reduce(Fraction.zero) { $0 + $1.1 }
            var running = Fraction.zero
            var median = Fraction.zero
            for (target, weight) in weighted {
                running = running + weight
                if !(running + running < total) { median = target; break }
            }
            #expect(median != lexicographic)
        }
    }

    @Test("ambiguous: consistent required equalities of deficient rank; v0's width is free")
    func ambiguous() throws {
        for seed: UInt64 in 1...5 {
            let system = generate(family: try family("ambiguous"), size: 20, seed: seed).system
            let result = try #require(requiredEqualities(system))
            #expect(!result.outcomes.contains(.inconsistent))
            #expect(result.elimination.rank < system.variableCount)
            #expect(result.elimination.value(of: try variable(system, "v0", .w)) == nil)
            #expect(result.elimination.value(of: try variable(system, "v0", .x)) != nil)
        }
    }

    @Test("conflict-early and conflict-late break the first required constraint where they claim")
    func conflicts() throws {
        for seed: UInt64 in 1...5 {
            for size in [1, 2, 30] {
                let early = generate(family: try family("conflict-early"), size: size, seed: seed).system
                let e = try #require(requiredEqualities(early))
                let firstBroken = try #require(e.outcomes.firstIndex(of: .inconsistent))
                #expect(firstBroken <= 2)
                #expect(e.outcomes.filter { $0 == .inconsistent }.count == 1)

                let late = generate(family: try family("conflict-late"), size: size, seed: seed).system
                let l = try #require(requiredEqualities(late))
                #expect(l.outcomes.firstIndex(of: .inconsistent) == late.constraints.count - 1)
                #expect(l.outcomes.filter { $0 == .inconsistent }.count == 1)
            }
        }
    }

    @Test("long-chain: each view is placed after the previous one")
    func longChain() throws {
        let system = generate(family: try family("long-chain"), size: 2000, seed: 3).system
        #expect(system.viewCount == 2000)
        var placedAfterPrevious = Set<ItemIndex>()
        for c in system.constraints where c.first.attribute == .leading && c.second?.attribute == .trailing {
            if c.second?.item == c.first.item - 1 { placedAfterPrevious.insert(c.first.item) }
        }
        #expect(placedAfterPrevious == Set(2...system.viewCount))
    }

    @Test("equal-hugging: labels of a row share hugging and resistance, and the row has slack or a shortfall")
    func equalHugging() throws {
        let system = generate(family: try family("equal-hugging"), size: 30, seed: 2).system
        let frame = try #require(system.root.frame)
        let width = Fraction(literal: frame[2])
        var rows: [String: [Item]] = [:]
        for item in system.items.dropFirst() {
            rows[String(item.name.prefix { $0 != "_" }), default: []].append(item)
        }
        for (_, labels) in rows where labels.count > 1 {
            #expect(Set(labels.map(\.hugging.horizontal)).count == 1)
            #expect(Set(labels.map(\.resistance.horizontal)).count == 1)
            var total = Fraction(integer: 16 + 8 * (labels.count - 1))
            for label in labels { total = total + Fraction(literal: try #require(label.intrinsic.horizontal)) }
            #expect(total != width)
        }
    }
}
