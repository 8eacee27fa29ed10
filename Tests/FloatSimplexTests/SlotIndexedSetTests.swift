import Generator
import Testing
@testable import FloatSimplex

/// A record with two slots, as a tableau symbol has (candidate and infeasible).
private struct Item {
    var red: Int32 = -1
    var blue: Int32 = -1
}

private enum RedSlot: SlotField {
    static func slot(in record: Item) -> Int32 { record.red }
    static func setSlot(_ slot: Int32, in record: inout Item) { record.red = slot }
}

private enum BlueSlot: SlotField {
    static func slot(in record: Item) -> Int32 { record.blue }
    static func setSlot(_ slot: Int32, in record: inout Item) { record.blue = slot }
}

@Suite struct SlotIndexedSetTests {
    @Test func insertRemoveAndMembershipAgreeWithASet() {
        var random = SeededGenerator(seed: 19)
        var items = [Item](repeating: Item(), count: 40)
        var red = SlotIndexedSet<RedSlot>()
        var blue = SlotIndexedSet<BlueSlot>()
        var redModel = Set<Int>()
        var blueModel = Set<Int>()
        for _ in 0..<2_000 {
            let element = Int(random.next() % 40)
            let wanted = random.next() % 3 != 0
            if random.next() % 2 == 0 {
                red.update(element, to: wanted, records: &items)
                if wanted { redModel.insert(element) } else { redModel.remove(element) }
            } else {
                blue.update(element, to: wanted, records: &items)
                if wanted { blueModel.insert(element) } else { blueModel.remove(element) }
            }
            #expect(red.invariantViolations("red", records: items) == [])
            #expect(blue.invariantViolations("blue", records: items) == [])
        }
        #expect(Set(red) == redModel && red.count == redModel.count)
        #expect(Set(blue) == blueModel && blue.count == blueModel.count)
        for element in items.indices {
            #expect(red.contains(element, in: items) == redModel.contains(element))
        }
    }

    @Test func removalMovesTheLastMemberIntoTheFreedSlot() {
        var items = [Item](repeating: Item(), count: 4)
        var set = SlotIndexedSet<RedSlot>()
        for element in [2, 0, 3] { set.insert(element, records: &items) }
        set.remove(2, records: &items)
        #expect(Array(set) == [3, 0])
        #expect(items[3].red == 0 && items[0].red == 1 && items[2].red == -1)
        // Removing a non-member changes nothing.
        set.remove(1, records: &items)
        #expect(Array(set) == [3, 0])
        #expect(items[1].blue == -1)
    }

    @Test func replacingMembersRestoresASavedStateAndLeavesDroppedRecordsAlone() {
        var items = [Item](repeating: Item(), count: 6)
        var set = SlotIndexedSet<RedSlot>()
        for element in [1, 4] { set.insert(element, records: &items) }
        let saved = set.members
        set.remove(1, records: &items)
        set.insert(0, records: &items)
        set.insert(5, records: &items)
        // Records from 5 on are about to be dropped: the rollback does not touch them.
        set.replaceMembers(with: saved, recordCount: 5, records: &items)
        items.removeLast()
        #expect(Array(set) == [1, 4])
        #expect(set.invariantViolations("red", records: items) == [])
    }

    @Test func brokenSlotsAreReported() {
        var items = [Item](repeating: Item(), count: 3)
        var set = SlotIndexedSet<RedSlot>()
        set.insert(0, records: &items)
        set.insert(1, records: &items)
        items[1].red = 0
        items[2].red = 1
        let violations = set.invariantViolations("red", records: items)
        #expect(violations == ["red slot of 1", "1 records red slot 0 that holds another", "2 records red slot 1 that holds another"])
    }
}
