/// The column index of the tableau: for every symbol, the basic symbols whose rows name it.
///
/// Each symbol's users form a singly linked list in one shared pool of nodes, with freed
/// nodes recycled. An array per symbol would cost an allocation (and a release) for almost
/// every symbol, which for a solver of a dozen constraints — one table cell — is a good part
/// of the work. Lists are short (a symbol is named by few rows), so removal walks its list.
struct ColumnIndex: Sendable {
    /// Per symbol: its first node, or -1.
    private var head: [Int32] = []
    /// Per node: the next node of the same list, or -1 (also links the free list).
    private var next: [Int32] = []
    /// Per node: the user it holds.
    private var user: [Int32] = []
    private var free: Int32 = -1

    var symbolCount: Int { head.count }

    mutating func reserveCapacity(_ symbols: Int) {
        head.reserveCapacity(symbols)
        next.reserveCapacity(2 * symbols)
        user.reserveCapacity(2 * symbols)
    }

    /// Adds a symbol named by no row.
    mutating func appendSymbol() { head.append(-1) }

    /// Drops the symbols numbered `count` and above (their lists must be empty: a rollback
    /// has already restored every row that named them).
    mutating func removeSymbols(from count: Int) {
        for symbol in count..<head.count {
            while head[symbol] >= 0 { remove(user[Int(head[symbol])], from: symbol) }
        }
        head.removeSubrange(count...)
    }

    /// Whether no row names `symbol`.
    func isEmpty(_ symbol: Int) -> Bool { head[symbol] < 0 }

    mutating func add(_ newUser: Int, to symbol: Int) {
        let node: Int32
        if free >= 0 {
            node = free
            free = next[Int(node)]
            next[Int(node)] = head[symbol]
            user[Int(node)] = Int32(truncatingIfNeeded: newUser)
        } else {
            node = Int32(truncatingIfNeeded: next.count)
            next.append(head[symbol])
            user.append(Int32(truncatingIfNeeded: newUser))
        }
        head[symbol] = node
    }

    mutating func remove(_ oldUser: Int, from symbol: Int) {
        remove(Int32(truncatingIfNeeded: oldUser), from: symbol)
    }

    private mutating func remove(_ oldUser: Int32, from symbol: Int) {
        var previous: Int32 = -1
        var node = head[symbol]
        while node >= 0 && user[Int(node)] != oldUser {
            previous = node
            node = next[Int(node)]
        }
        guard node >= 0 else { return }
        if previous < 0 { head[symbol] = next[Int(node)] } else { next[Int(previous)] = next[Int(node)] }
        next[Int(node)] = free
        free = node
    }

    /// The users of `symbol`, most recently added first.
    subscript(symbol: Int) -> Users { Users(index: self, node: head[symbol]) }

    /// A snapshot-free walk over one symbol's list; the index must not change during the walk
    /// (copy it into an array first when the loop body edits rows).
    struct Users: Sequence, IteratorProtocol {
        fileprivate let index: ColumnIndex
        fileprivate var node: Int32

        mutating func next() -> Int? {
            guard node >= 0 else { return nil }
            let current = Int(node)
            node = index.next[current]
            return Int(index.user[current])
        }
    }
}
