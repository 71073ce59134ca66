import FairFuelCore
import Testing

@testable import FairFuelParsers

@Suite("BLE AD structures")
struct BLEADStructuresTests {
    private func read(_ bytes: [UInt8]) -> (structures: [ADStructure], padding: Int, truncated: Int) {
        var iterator = ADStructures(bytes[...]).makeIterator()
        var structures: [ADStructure] = []
        while let structure = iterator.next() { structures.append(structure) }
        return (structures, iterator.paddingByteCount, iterator.truncatedByteCount)
    }

    @Test func readsStructuresInOrder() {
        // Flags 0x06, complete name "Hi", manufacturer data 0x004C.
        let result = read([0x02, 0x01, 0x06, 0x03, 0x09, 0x48, 0x69, 0x03, 0xFF, 0x4C, 0x00])
        #expect(result.structures.map(\.type) == [.flags, .completeLocalName, .manufacturerData])
        #expect(result.structures.map { Array($0.value) } == [[0x06], [0x48, 0x69], [0x4C, 0x00]])
        #expect(result.padding == 0 && result.truncated == 0)
    }

    @Test func valuesShareTheInputStorage() {
        let bytes: [UInt8] = [0xAA, 0x02, 0x01, 0x06, 0xBB]
        let slice = bytes[1..<4]
        let structure = ADStructures(slice).first { _ in true }
        #expect(structure?.value.startIndex == 3)
    }

    @Test func emptyDataHasNoStructures() {
        let result = read([])
        #expect(result.structures.isEmpty && result.padding == 0 && result.truncated == 0)
    }

    @Test func zeroLengthBytesArePaddingAndSkipped() {
        let result = read([0x02, 0x01, 0x06, 0x00, 0x00, 0x02, 0x0A, 0xF4, 0x00])
        #expect(result.structures.map(\.type) == [.flags, .txPowerLevel])
        #expect(result.padding == 3)
        #expect(result.truncated == 0)
    }

    @Test func allZeroDataYieldsNothing() {
        let result = read([UInt8](repeating: 0, count: 31))
        #expect(result.structures.isEmpty && result.padding == 31 && result.truncated == 0)
    }

    @Test(arguments: [
        ([0x05, 0x09, 0x41], 3),  // claims 5, has 2 after the length byte
        ([0x02, 0x01, 0x06, 0xFF], 1),  // a 255-byte claim at the very end
        ([0x02, 0x01, 0x06, 0xFF, 0xFF, 0x01, 0x02], 4),
        ([0x01], 1),  // a length byte with no type byte
        ([0x02, 0x01], 2),  // a type byte with no value byte
        ([0xFF] + [UInt8](repeating: 0x41, count: 254), 255),  // one byte short of 255
    ] as [([UInt8], Int)])
    func truncatedStructureEndsTheDataAndIsCounted(bytes: [UInt8], truncated: Int) {
        let result = read(bytes)
        #expect(result.truncated == truncated)
        let consumed = result.structures.reduce(0) { $0 + 2 + $1.value.count }
        #expect(consumed + result.padding + result.truncated == bytes.count)
    }

    @Test func fullLength255StructureIsRead() {
        let bytes: [UInt8] = [0xFF, 0xFF] + [UInt8](repeating: 0x41, count: 254)
        let result = read(bytes)
        #expect(result.structures.count == 1)
        #expect(result.structures.first?.value.count == 254)
        #expect(result.truncated == 0)
    }

    @Test func typeOnlyStructureHasAnEmptyValue() {
        let result = read([0x01, 0x09])
        #expect(result.structures == [ADStructure(type: .completeLocalName, value: [])])
    }

    @Test func unknownTypesPassThrough() {
        let result = read([0x03, 0x2A, 0x01, 0x02])
        #expect(result.structures.first?.type.rawValue == 0x2A)
        #expect(result.structures.first?.type.description == "AD type 0x2A")
    }
}
