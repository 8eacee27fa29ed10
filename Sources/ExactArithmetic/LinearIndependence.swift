/// Whether sparse rational rows are linearly independent, decided exactly by Gaussian
/// elimination one row at a time.
///
/// The exact backend uses it to prove a conflict irreducible without a feasibility check per
/// member, and the certificate checker to verify that proof: if the support of a Farkas
/// vector has linearly independent rows (coefficients and constant together), that vector is
/// the only one on the support up to scale, so no proper subset has one, and by Farkas'
/// lemma every proper subset is feasible.
///
/// Each row is reduced against the rows kept so far (each kept row has a pivot column that no
/// earlier kept row names), then kept with a new pivot: among its columns, the one that
/// occurs in the fewest input rows, which keeps a chain of constraints (`x₂ − x₁`,
/// `x₃ − x₂`, …) without fill-in. A row that reduces to zero is a combination of the
/// earlier ones. Reducing by kept rows in the order they were kept terminates: a kept row
/// names only pivots of rows kept after it.
///
/// - Complexity: O(w) rational operations, where w is the number of entries the reductions
///   touch; on a chain or a tree of two-term rows, O(total entries). Denser supports fill
///   in, hence `workLimit`.
public enum LinearIndependence {
    /// A sparse row: (column, value) pairs with distinct columns; zero values are ignored.
    public typealias SparseRow = [(column: Int, value: Rational)]

    /// Whether `rows` are linearly independent; nil when the reductions would touch more
    /// than `workLimit` entries (undecided: the caller proves what it needs another way).
    public static func areIndependent(_ rows: [SparseRow], workLimit: Int = .max) -> Bool? {
        var occurrences: [Int: Int] = [:]
        for row in rows {
            for entry in row where !entry.value.isZero { occurrences[entry.column, default: 0] += 1 }
        }
        // Kept rows, each with its pivot column and value; the pivot's kept row by column.
        var kept: [(pivot: Int, pivotValue: Rational, entries: [Int: Rational])] = []
        kept.reserveCapacity(rows.count)
        var keptRowOfPivot: [Int: Int] = [:]
        var work = 0
        for row in rows {
            var working: [Int: Rational] = [:]
            for entry in row where !entry.value.isZero { working[entry.column] = entry.value }
            // The kept rows whose pivots the working row names, reduced smallest first.
            var pending = Set(working.keys.compactMap { keptRowOfPivot[$0] })
            while let next = pending.min() {
                pending.remove(next)
                let pivotRow = kept[next]
                // `min()` scans the pending set: counted, so a wide one stays within the limit.
                work += pending.count
                guard let coefficient = working[pivotRow.pivot] else { continue }
                let factor = -(coefficient / pivotRow.pivotValue)
                work += pivotRow.entries.count
                guard work <= workLimit else { return nil }
                for (column, value) in pivotRow.entries {
                    var sum = working[column] ?? .zero
                    sum.addProduct(factor, value)
                    if sum.isZero {
                        working[column] = nil
                    } else {
                        if working[column] == nil, let other = keptRowOfPivot[column] { pending.insert(other) }
                        working[column] = sum
                    }
                }
                // Exactly zero by construction; removed in case the sum above kept it.
                working[pivotRow.pivot] = nil
            }
            guard let pivot = working.keys.min(by: { (occurrences[$0] ?? 0, $0) < (occurrences[$1] ?? 0, $1) }),
                let pivotValue = working[pivot]
            else { return false }
            keptRowOfPivot[pivot] = kept.count
            kept.append((pivot, pivotValue, working))
        }
        return true
    }
}
