/// A min-heap of symbols keyed by an integer (a rank, or a negated rank for a max-heap).
struct KeyedHeap: Sendable {
    private var entries: [(key: Int, symbol: Int)] = []

    var isEmpty: Bool { entries.isEmpty }

    mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

    mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    mutating func push(_ symbol: Int, key: Int) {
        entries.append((key, symbol))
        // One uniqueness check for the whole sift rather than one per move.
        entries.withUnsafeMutableBufferPointer { entries in
            var i = entries.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                if entries[parent].key <= key { break }
                entries[i] = entries[parent]
                i = parent
            }
            entries[i] = (key, symbol)
        }
    }

    mutating func pop() -> Int? {
        guard let top = entries.first else { return nil }
        let last = entries.removeLast()
        if entries.isEmpty { return top.symbol }
        entries.withUnsafeMutableBufferPointer { entries in
            let count = entries.count
            var i = 0
            while true {
                let left = 2 * i + 1
                if left >= count { break }
                let right = left + 1
                let child = right < count && entries[right].key < entries[left].key ? right : left
                if entries[child].key >= last.key { break }
                entries[i] = entries[child]
                i = child
            }
            entries[i] = last
        }
        return top.symbol
    }
}
