import HeapModule

/// The primal simplex's candidates ordered by their improving direction, for an optimisation
/// that holds many at once.
///
/// ``CassowarySolver/chooseEntering(bland:)`` compares every candidate per pivot. On a row of
/// chips whose trailing edge overflows the width (`long-row`), the overflow makes every
/// chip's hugging slack a candidate at once, and each pivot takes one: n pivots over n
/// candidates, 70% of the solve at 3,000 views. The queue keeps them in a heap instead and
/// re-reads only the symbols whose candidacy was updated since the last choice (the tableau
/// lists them while it ``Tableau/watchesCandidacy``).
///
/// The order is ``LexVector/exactOrder(_:scaledBy:_:scaledBy:)`` of the cost times the
/// direction, then the lower symbol: the scan's order, except that the scan ties costs that
/// differ only by rounding (and then takes the lower symbol), which is not a total order.
///
/// Complexity: O(k log k) to build over k candidates, O(log k) per updated symbol and per
/// entry taken; an entry made stale by an update is dropped when it reaches the top.
struct EnteringQueue {
    /// Below this many candidates the scan is cheaper than keeping a heap.
    static let minimumCandidates = 64

    private struct Entry: Comparable {
        var symbol: Int
        var stamp: UInt32
        var direction: Double
        var cost: LexVector

        static func < (a: Entry, b: Entry) -> Bool {
            let order = LexVector.exactOrder(a.cost, scaledBy: a.direction, b.cost, scaledBy: b.direction)
            return order != 0 ? order < 0 : a.symbol < b.symbol
        }

        static func == (a: Entry, b: Entry) -> Bool { !(a < b) && !(b < a) }
    }

    private var heap = Heap<Entry>()
    /// Per symbol, the stamp of its live entry; an entry with another stamp is stale.
    private var stamps: [UInt32]
    /// Per symbol, the refresh that last re-read it (an update listed twice is read once).
    private var readIn: [UInt32]
    private var refreshes: UInt32 = 0

    /// A queue of the tableau's current candidates; from now on the tableau lists the
    /// symbols whose candidacy it updates. Call ``stopWatching(_:)`` when done.
    init(watching tableau: inout Tableau) {
        stamps = Array(repeating: 0, count: tableau.symbolCount)
        readIn = Array(repeating: 0, count: tableau.symbolCount)
        var entries: [Entry] = []
        entries.reserveCapacity(tableau.candidates.count)
        for symbol in tableau.candidates.members {
            let direction = tableau.improvingDirection(symbol)
            if direction != 0 { entries.append(Entry(symbol: symbol, stamp: 0, direction: Double(direction), cost: tableau.reducedCosts[symbol])) }
        }
        heap = Heap(entries)
        tableau.watchesCandidacy = true
        tableau.candidacyUpdates.removeAll(keepingCapacity: true)
    }

    /// Ends the tableau's listing of updates.
    static func stopWatching(_ tableau: inout Tableau) {
        tableau.watchesCandidacy = false
        tableau.candidacyUpdates.removeAll(keepingCapacity: true)
    }

    /// Re-reads every symbol the tableau listed since the last call: its old entry goes
    /// stale, and a candidate gets a new one at its current cost.
    mutating func refresh(from tableau: inout Tableau) {
        guard !tableau.candidacyUpdates.isEmpty else { return }
        if stamps.count < tableau.symbolCount {
            stamps.append(contentsOf: repeatElement(0, count: tableau.symbolCount - stamps.count))
            readIn.append(contentsOf: repeatElement(0, count: tableau.symbolCount - readIn.count))
        }
        refreshes &+= 1
        for symbol in tableau.candidacyUpdates where readIn[symbol] != refreshes {
            readIn[symbol] = refreshes
            stamps[symbol] &+= 1
            let direction = tableau.improvingDirection(symbol)
            if direction != 0 && tableau.candidates.contains(symbol, in: tableau.symbols) {
                heap.insert(Entry(symbol: symbol, stamp: stamps[symbol], direction: Double(direction), cost: tableau.reducedCosts[symbol]))
            }
        }
        tableau.candidacyUpdates.removeAll(keepingCapacity: true)
    }

    /// Takes the candidate with the steepest improving direction (nil when none is left),
    /// dropping stale entries on the way. The caller then pivots it in or drops it as
    /// residue, either of which updates its candidacy.
    mutating func popBest(in tableau: Tableau) -> Int? {
        while let top = heap.popMin() {
            let symbol = top.symbol
            guard symbol < stamps.count, top.stamp == stamps[symbol], tableau.candidates.contains(symbol, in: tableau.symbols),
                  tableau.improvingDirection(symbol) != 0 else { continue }
            // Taken: a later update re-reads it, and nothing else may hand it out again.
            stamps[symbol] &+= 1
            return symbol
        }
        return nil
    }
}
