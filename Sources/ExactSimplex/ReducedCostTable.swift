import ExactArithmetic

/// The reduced costs of phase two, kept up to date across pivots instead of priced anew.
///
/// A level's objective touches every row of its level, so its duals are as long as the
/// layout, and recomputing them and every reduced cost on each pivot made a level of
/// `hugging-contest` (a pivot or two per row, each row on its own) quadratic: 2,600
/// pivots at 10,000 views, each a BTRAN and a pricing pass over the whole layout. After a
/// pivot the duals change by `Δy` with `B'ᵀ Δy = g`, where `g` on each slot is the old
/// reduced cost of the column now in it (zero on the slots that kept their column), so
/// `Δy` is one hypersparse BTRAN of the few changed slots, and the reduced costs change
/// only on the columns of the rows it reaches. Exact arithmetic makes the values equal to
/// a full pricing's.
///
/// Dantzig's choice (the largest magnitude, the smallest column on ties, as a scan in
/// ascending order picks) comes from a heap of (magnitude, column) entries pushed on every
/// change; an entry whose column has moved on since is dropped when it reaches the top.
struct ReducedCostTable: Sendable {
    /// `c_j − yᵀA_j` per column; meaningful on the nonbasic columns not fixed.
    private(set) var values: [Rational]
    private var heap: [(magnitude: Rational, column: Int)] = []

    /// The table of `priced` (the nonzero reduced costs, by column) over `columnCount` columns.
    init(columnCount: Int, priced: [SparseEntry]) {
        values = [Rational](repeating: .zero, count: columnCount)
        for entry in priced {
            values[entry.index] = entry.value
            push(entry.index)
        }
    }

    subscript(column: Int) -> Rational { values[column] }

    /// `d_j −= a × b`, remembered for the choice.
    mutating func subtractProduct(_ column: Int, _ a: Rational, _ b: Rational) {
        values[column].addProduct(-a, b)
        push(column)
    }

    /// A column that became basic: its reduced cost is zero.
    mutating func clear(_ column: Int) {
        values[column] = .zero
    }

    private mutating func push(_ column: Int) {
        let magnitude = values[column].magnitude
        guard !magnitude.isZero else { return }
        heap.append((magnitude, column))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func precedes(_ a: (magnitude: Rational, column: Int), _ b: (magnitude: Rational, column: Int)) -> Bool {
        b.magnitude < a.magnitude || (a.magnitude == b.magnitude && a.column < b.column)
    }

    private mutating func popTop() {
        guard let last = heap.popLast(), !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var first = parent
            if left < heap.count && Self.precedes(heap[left], heap[first]) { first = left }
            if right < heap.count && Self.precedes(heap[right], heap[first]) { first = right }
            guard first != parent else { break }
            heap.swapAt(parent, first)
            parent = first
        }
    }

    /// Dantzig's entering column among those `direction` accepts (it returns +1 or −1 for
    /// a column that may move with this reduced cost, 0 otherwise), with its direction and
    /// reduced cost; nil when none may.
    mutating func largest(direction: (Int, Rational) -> Int) -> (column: Int, direction: Int, reducedCost: Rational)? {
        while let top = heap.first {
            let j = top.column, d = values[j]
            if d.magnitude == top.magnitude {
                let way = direction(j, d)
                if way != 0 { return (j, way, d) }
            }
            popTop()
        }
        return nil
    }
}
