import FairFuelConfiguration
import TestSupport
import Testing

@Suite("TOML subset: render and parse back")
struct TOMLRoundTripTests {
    @Test("random documents survive TOMLWriter then TOMLParser", arguments: 0..<200)
    func randomDocument(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 17)
        let table = Self.randomTable(depth: 0, using: &generator)
        let text = TOMLWriter.render(table)
        let parsed = try TOMLParser.parse(text)
        #expect(parsed == table, "rendered as:\n\(text)")
        #expect(TOMLWriter.render(parsed) == text)
    }

    @Test("corrupted profiles only ever throw typed errors with a line inside the text", arguments: 0..<8)
    func corruptedProfiles(seed: Int) throws {
        let original = Array(try BoardFiles.text("pi-zero-2w.toml").utf8)
        let alphabet = Array("[]=\"'#.,_-+0x9e \n\r\t\\{}".utf8) + [0x00, 0x7F, 0xC3, 0xFF]
        var generator = SeededGenerator(seed: UInt64(seed) + 1000)
        for _ in 0..<250 {
            var bytes = original
            for _ in 0...Int.random(in: 0..<4, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] = byte
                case 1: bytes.insert(byte, at: at)
                default: bytes.remove(at: at)
                }
            }
            let lineCount = bytes.filter { $0 == 0x0A }.count + 1
            do {
                _ = try BoardProfile.load(bytes: bytes)
            } catch {
                if let line = error.line { #expect((1...lineCount).contains(line), "\(error)") }
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test("hand-written edge values")
    func edgeValues() throws {
        var table = TOMLTable()
        table.insert("min", .integer(.min))
        table.insert("max", .integer(.max))
        table.insert("tiny", .float(.leastNonzeroMagnitude))
        table.insert("huge", .float(1.797_693_134_862_315_7e308))
        table.insert("whole", .float(100))
        table.insert("negative zero", .float(-0.0))
        table.insert("controls", .string("\u{00}\u{01}\u{1F}\u{7F}\t\n\r\u{08}\u{0C}\"\\"))
        table.insert("unicode", .string("é 漢字 🚗 \u{10FFFF}"))
        table.insert("", .string("empty key"))
        table.insert("dotted.key", .boolean(true))
        table.insert("empty array", .array([]))
        var sub = TOMLTable()
        sub.insert("x", .integer(1))
        table.insert("with space", .table(sub))
        table.insert("nested empty", .table(TOMLTable()))
        let text = TOMLWriter.render(table)
        #expect(try TOMLParser.parse(text) == table, "rendered as:\n\(text)")
    }

    @Test("keys are bare when they can be")
    func keyQuoting() {
        #expect(TOMLWriter.key("receive_ring_bytes") == "receive_ring_bytes")
        #expect(TOMLWriter.key("usb-pull9") == "usb-pull9")
        #expect(TOMLWriter.key("a.b") == "\"a.b\"")
        #expect(TOMLWriter.key("") == "\"\"")
        #expect(TOMLWriter.key("é") == "\"é\"")
    }

    // MARK: - Generator

    static func randomTable(depth: Int, using generator: inout SeededGenerator) -> TOMLTable {
        var table = TOMLTable()
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            let key = randomKey(using: &generator)
            let roll = Int.random(in: 0..<10, using: &generator)
            let value: TOMLValue
            if roll == 0, depth < 3 {
                value = .table(randomTable(depth: depth + 1, using: &generator))
            } else if roll == 1, depth < 3 {
                value = .tableArray(
                    (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                        randomTable(depth: depth + 1, using: &generator)
                    })
            } else if roll == 2 {
                let kind = Int.random(in: 0..<4, using: &generator)
                value = .array(
                    (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                        randomScalar(kind: kind, using: &generator)
                    })
            } else {
                value = randomScalar(kind: Int.random(in: 0..<4, using: &generator), using: &generator)
            }
            table.insert(key, value)
        }
        return table
    }

    static func randomScalar(kind: Int, using generator: inout SeededGenerator) -> TOMLValue {
        switch kind {
        case 0:
            return .string(randomText(using: &generator))
        case 1:
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: return .integer(Int64.random(in: -1000...1000, using: &generator))
            case 1: return .integer(Int64(bitPattern: generator.next()))
            default: return .integer([Int64.min, Int64.max, 0, -1][Int.random(in: 0..<4, using: &generator)])
            }
        case 2:
            var value: Double
            repeat {
                value = Double(bitPattern: generator.next())
            } while !value.isFinite
            if Bool.random(using: &generator) { value = Double(Int.random(in: -5000...5000, using: &generator)) / 8 }
            return .float(value)
        default:
            return .boolean(Bool.random(using: &generator))
        }
    }

    static let alphabet: [Unicode.Scalar] =
        Array("abcXYZ019_-".unicodeScalars) + [" ", ".", "\"", "'", "\\", "#", "=", "[", "]", "é", "漢", "🚗", "\t", "\n", "\r", "\u{00}", "\u{1B}", "\u{7F}", "\u{FEFF}"]

    static func randomText(using generator: inout SeededGenerator) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            text.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
        }
        return String(text)
    }

    static func randomKey(using generator: inout SeededGenerator) -> String {
        if Bool.random(using: &generator) { return randomText(using: &generator) }
        let bare = Array("abcdefghijklmnopqrstuvwxyz0123456789_-".unicodeScalars)
        var key = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 1...10, using: &generator) {
            key.append(bare[Int.random(in: 0..<bare.count, using: &generator)])
        }
        return String(key)
    }
}
