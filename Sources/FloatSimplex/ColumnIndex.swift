/// The column index of the tableau: for every symbol, the basic symbols whose rows name it.
///
/// Each symbol's users form a singly linked list in one shared pool of nodes, with freed
/// nodes recycled. An array per symbol would cost an allocation (and a release) for almost
/// every symbol, which for a solver of a dozen constraints — one table cell — is a good part
/// of the work. Lists are short (a symbol is named by few rows), so removal walks its list.
struct ColumnIndex: Sendable {
    /// Per symbol: its first node, or -1.
    private var head: [Int32] = []
    /// Per node: the next node of the same list, or -1 (also links the free list), and the
    /// user it holds.
    private var nodes: [(next: Int32, user: Int32)] = []
    private var free: Int32 = -1

    var symbolCount: Int { head.count }

    mutating func reserveCapacity(_ symbols: Int) {
        reserveCapacity(symbols, entries: symbols + symbols / 2)
    }

    /// Room for `symbols` symbols and `entries` (row, symbol) pairs without regrowing.
    mutating func reserveCapacity(_ symbols: Int, entries: Int) {
        head.reserveCapacity(symbols)
        nodes.reserveCapacity(entries)
    }

    /// Adds a symbol named by no row.
    mutating func appendSymbol() { head.append(-1) }

    /// Drops the symbols numbered `count` and above (their lists must be empty: a rollback
    /// has already restored every row that named them).
    mutating func removeSymbols(from count: Int) {
        for symbol in count..<head.count {
            while head[symbol] >= 0 { remove(nodes[Int(head[symbol])].user, from: symbol) }
        }
        head.removeSubrange(count...)
    }

    /// Whether no row names `symbol`.
    func isEmpty(_ symbol: Int) -> Bool { head[symbol] < 0 }

    @inline(__always)
    mutating func add(_ newUser: Int, to symbol: Int) {
        let node: Int32
        if free >= 0 {
            node = free
            free = nodes[Int(node)].next
            nodes[Int(node)] = (head[symbol], Int32(truncatingIfNeeded: newUser))
        } else {
            node = Int32(truncatingIfNeeded: nodes.count)
            nodes.append((head[symbol], Int32(truncatingIfNeeded: newUser)))
        }
        head[symbol] = node
    }

    mutating func remove(_ oldUser: Int, from symbol: Int) {
        remove(Int32(truncatingIfNeeded: oldUser), from: symbol)
    }

    private mutating func remove(_ oldUser: Int32, from symbol: Int) {
        var previous: Int32 = -1
        var node = head[symbol]
        while node >= 0 && nodes[Int(node)].user != oldUser {
            previous = node
            node = nodes[Int(node)].next
        }
        guard node >= 0 else { return }
        if previous < 0 { head[symbol] = nodes[Int(node)].next } else { nodes[Int(previous)].next = nodes[Int(node)].next }
        nodes[Int(node)].next = free
        free = node
    }

    /// The first node of `symbol`'s list (-1: none). With `user(at:)` and `next(after:)`, a
    /// walk that copies nothing (hot loops that also mutate the tableau use it).
    @inline(__always)
    func first(_ symbol: Int) -> Int32 { head[symbol] }

    @inline(__always)
    func next(after node: Int32) -> Int32 { nodes[Int(node)].next }

    @inline(__always)
    func user(at node: Int32) -> Int { Int(nodes[Int(node)].user) }

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
            node = index.nodes[current].next
            return Int(index.nodes[current].user)
        }
    }
}
