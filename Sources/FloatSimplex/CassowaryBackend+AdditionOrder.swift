import LayoutModel

extension CassowaryBackend {
    /// The order ``solve(_:budget:)`` adds the rows in: the file's order, required and
    /// optional rows interleaved, up to ``strongestFirstLevelCount`` levels; above it the
    /// required rows in file order, then the optional ones strongest level first; in both,
    /// links pulled forward (``linksPulledForward(_:_:)``). Neither the optimum nor the broken
    /// list depends on the order: optional rows never make the required ones infeasible, and
    /// where a failing required row could get another verdict than in the file's order, the
    /// solve takes the links from further on back and goes on in
    /// ``walkOrder(_:levelCount:level:)`` (``solve(_:budget:)``; its
    /// ``solveReportingOrder(_:budget:)`` gives the order a solve ended up with). The work does
    /// depend on the order.
    ///
    /// A layout's rows come in the file's order view by view: a view's position, then its
    /// hugging and compression resistance. Added in that order, a label's optional rows meet
    /// only the views laid out before it, and a pivot they cause moves what is held so far.
    /// Added after every required row, they meet the whole layout: in a stack of cards, a
    /// card's height pivots with every card below it already chained to it, and each such
    /// pivot re-evaluates the rows of all of them (n²: `centered`, `table-cells`, `form`;
    /// at 1,000 views `table-cells` needed 2,028 pivots that way and none in file order).
    public static func additionOrder(_ linear: LinearSystem<Double>) -> [LinearRow<Double>] {
        let pooled = PooledLinearSystem(linear)
        return linksPulledForward(walkOrder(pooled), pooled).map { linear.rows[$0] }
    }

    /// ``walkOrder(_:levelCount:level:)`` of a pooled system's rows.
    static func walkOrder(_ linear: PooledLinearSystem) -> [Int] {
        walkOrder(linear.rows.count, levelCount: linear.levels.count) { linear.rows[$0].level }
    }

    /// The order the required walk is defined by (spec §5: a required row that conflicts with
    /// the ones before it is broken): the file's order, with the optional rows among the
    /// required ones up to ``strongestFirstLevelCount`` levels, after them strongest level
    /// first above it. For `count` rows of which row i is at `level(i)`.
    static func walkOrder(_ count: Int, levelCount: Int, level: (Int) -> Int) -> [Int] {
        guard levelCount > strongestFirstLevelCount else { return Array(0..<count) }
        // Required rows in file order, then the optional ones strongest level first (in file
        // order within a level), then any beyond the levels.
        var byLevel = Array(repeating: [Int](), count: levelCount + 2)
        for index in 0..<count { byLevel[min(level(index), levelCount + 1)].append(index) }
        return Array(byLevel.joined())
    }

    /// Above this many levels the optional rows are added after the required ones, strongest
    /// level first (``walkOrder(_:levelCount:level:)``).
    ///
    /// Reduced costs are vectors over the levels. In file order, a row stronger than the rows
    /// held moves what they fixed: a pivot, whose entering cost is as long as the levels it
    /// passes (one view with 3,000 priorities ascending in the file: 3,000 pivots, each
    /// carrying a reduced cost of up to 3,000 levels, and a backward cone as long). Strongest
    /// first, a row weaker than every level held is absorbed by its own error with no pivot
    /// (0 pivots there). With a few levels the vectors are short and file order costs little.
    static let strongestFirstLevelCount = 32

    /// `order` with each *closing link* moved to just before the row that first names its
    /// last-named variable, so that it names a variable no row before it does.
    ///
    /// A required equality all of whose variables earlier rows name (a closing link) has no
    /// fresh variable to take as its subject: its marker becomes the subject, infeasible, and
    /// the dual simplex pivots on the marker's fully reduced row, as long as everything the
    /// link joins. In `form` the vertical line comes last in the file: each link
    /// `fieldK.top == fieldK-1.bottom + 8` joins the stack above to a field placed on its own,
    /// two pivots as long as the stack, n² in all. Moved to before the row that first names
    /// `fieldK.top`, the link names it first, takes it as its subject with no pivot, and the
    /// field's own rows then meet a field already in place.
    ///
    /// A link is moved only if the row it goes before (the one that named the variable first)
    /// keeps a fresh variable of its own when that row is a required equality, so no link is
    /// made by the move. Moved links keep their relative order; each moves once.
    ///
    /// - Complexity: O(*t*), *t* the terms of the rows.
    static func linksPulledForward(_ order: [Int], _ linear: PooledLinearSystem) -> [Int] {
        // Plain loops over the pool: a closure per row handing out its variables cost 7 ms at
        // 10,000 views (`long-chain`), a third of the whole solve.
        let rows = linear.rows
        let terms = linear.terms
        func isRequiredEquality(_ row: Int) -> Bool { rows[row].isRequired && rows[row].relation == .equal }
        // The place in `order` of the first row naming each variable.
        var firstNamedAt = [Int32](repeating: -1, count: linear.variableCount)
        // How many variables the row at each place names first (and no link moved before it took).
        var freshCount = [Int32](repeating: 0, count: order.count)
        var closingLinks = 0
        for (place, row) in order.enumerated() {
            var fresh: Int32 = 0
            for index in rows[row].termRange where firstNamedAt[terms[index].variable] < 0 {
                firstNamedAt[terms[index].variable] = Int32(place)
                fresh += 1
            }
            freshCount[place] = fresh
            if fresh == 0 && isRequiredEquality(row) { closingLinks += 1 }
        }
        guard closingLinks > 0 else { return order }
        // Whether a variable has been taken by a link moved before the row that named it first.
        var taken = [Bool](repeating: false, count: linear.variableCount)
        // For each place, the place its link moves before (-1: stays), and how many links move
        // before each place.
        var movesBefore = [Int32](repeating: -1, count: order.count)
        var linksBefore = [Int32](repeating: 0, count: order.count)
        var movedCount = 0
        for (place, row) in order.enumerated() where freshCount[place] == 0 && isRequiredEquality(row) {
            let range = rows[row].termRange
            var last: Int32 = -1
            for index in range { last = max(last, firstNamedAt[terms[index].variable]) }
            guard last >= 0 && Int(last) < place else { continue }
            let target = Int(last)
            var claim: Int32 = 0
            for index in range where firstNamedAt[terms[index].variable] == last && !taken[terms[index].variable] { claim += 1 }
            guard claim > 0 else { continue }
            if isRequiredEquality(order[target]) && freshCount[target] - claim < 1 { continue }
            for index in range where firstNamedAt[terms[index].variable] == last { taken[terms[index].variable] = true }
            freshCount[target] -= claim
            movesBefore[place] = last
            linksBefore[target] += 1
            movedCount += 1
        }
        guard movedCount > 0 else { return order }
        // Each place's block in the result: the links moved before it (in their order), then
        // its own row unless it moved.
        var blockStart = [Int32](repeating: 0, count: order.count)
        var landing: Int32 = 0
        for place in 0..<order.count {
            blockStart[place] = landing
            landing += linksBefore[place] + (movesBefore[place] < 0 ? 1 : 0)
        }
        var result = [Int](repeating: 0, count: order.count)
        var nextLink = blockStart
        for (place, row) in order.enumerated() {
            let target = Int(movesBefore[place])
            if target >= 0 {
                result[Int(nextLink[target])] = row
                nextLink[target] += 1
            } else {
                result[Int(blockStart[place] + linksBefore[place])] = row
            }
        }
        return result
    }
}
