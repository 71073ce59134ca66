import FairFuelConfiguration
import Testing

@Suite("TOML subset: valid documents")
struct TOMLParserTests {
    @Test("scalars: strings, integers in every base, floats, booleans")
    func scalars() throws {
        let table = try TOMLParser.parse(
            #"""
            basic = "tab\there \"quoted\" back\\slash \u00e9 \U0001F697 \b\f\r\n"
            literal = 'C:\path\no "escapes"'
            empty = ""
            decimal = 1_000_000
            negative = -17
            plus = +42
            zero = 0
            hex = 0x1209
            hex_mixed = 0xDEAD_beef
            octal = 0o660
            binary = 0b1_1111
            min = -9223372036854775808
            max = 9223372036854775807
            float = 3.141_592
            exponent = 6.02e23
            negative_exponent = -1E-7
            exponent_only = 5e+22
            leading_zero_exponent = 1e06
            zero_float = -0.0
            yes = true
            no = false
            """#)
        #expect(table["basic"] == .string("tab\there \"quoted\" back\\slash é 🚗 \u{08}\u{0C}\r\n"))
        #expect(table["literal"] == .string(#"C:\path\no "escapes""#))
        #expect(table["empty"] == .string(""))
        #expect(table["decimal"] == .integer(1_000_000))
        #expect(table["negative"] == .integer(-17))
        #expect(table["plus"] == .integer(42))
        #expect(table["zero"] == .integer(0))
        #expect(table["hex"] == .integer(0x1209))
        #expect(table["hex_mixed"] == .integer(0xDEAD_BEEF))
        #expect(table["octal"] == .integer(0o660))
        #expect(table["binary"] == .integer(31))
        #expect(table["min"] == .integer(.min))
        #expect(table["max"] == .integer(.max))
        #expect(table["float"] == .float(3.141_592))
        #expect(table["exponent"] == .float(6.02e23))
        #expect(table["negative_exponent"] == .float(-1e-7))
        #expect(table["exponent_only"] == .float(5e22))
        #expect(table["leading_zero_exponent"] == .float(1e6))
        #expect(table["zero_float"]?.floatValue?.sign == .minus)
        #expect(table["yes"] == .boolean(true))
        #expect(table["no"] == .boolean(false))
        #expect(table.keys.first == "basic")
    }

    @Test("comments, blank lines, CRLF and a BOM")
    func layout() throws {
        let text = "\u{FEFF}# heading comment\r\n\r\n  key = 1   # trailing comment é\r\n\t[section]  # after a header\r\nother = 'x'\r\n# last line without newline"
        let table = try TOMLParser.parse(text)
        #expect(table["key"] == .integer(1))
        #expect(table["section"]?.tableValue?["other"] == .string("x"))
        #expect(table.line(of: "key") == 3)
        #expect(table["section"]?.tableValue?.line == 4)
        #expect(table["section"]?.tableValue?.line(of: "other") == 5)
    }

    @Test("quoted keys, bare keys with digits and dashes")
    func keys() throws {
        let table = try TOMLParser.parse(
            """
            "key with spaces" = 1
            'literal.key' = 2
            bare-key_9 = 3
            1234 = 4
            "" = 5
            """)
        #expect(table["key with spaces"] == .integer(1))
        #expect(table["literal.key"] == .integer(2))
        #expect(table["bare-key_9"] == .integer(3))
        #expect(table["1234"] == .integer(4))
        #expect(table[""] == .integer(5))
    }

    @Test("tables, sub-tables and implicit super-tables")
    func tables() throws {
        let table = try TOMLParser.parse(
            """
            top = 1
            [a]
            x = 1
            [a.b]
            y = 2
            [ c . "d e" . f ]
            z = 3
            [c]
            w = 4
            """)
        let a = try #require(table["a"]?.tableValue)
        #expect(a["x"] == .integer(1))
        #expect(a["b"]?.tableValue?["y"] == .integer(2))
        let c = try #require(table["c"]?.tableValue)
        #expect(c["w"] == .integer(4))
        #expect(c["d e"]?.tableValue?["f"]?.tableValue?["z"] == .integer(3))
        #expect(table.keys == ["top", "a", "c"])
    }

    @Test("arrays of tables, with sub-tables of their last element")
    func arraysOfTables() throws {
        let table = try TOMLParser.parse(
            """
            [[mcu.boards]]
            name = "rev-b"
            [mcu.boards.usb]
            vendor = 0x1209
            [[mcu.boards]]
            name = "uart"
            [[mcu.boards.ports]]
            path = "/dev/ttyAMA0"
            [[mcu.boards.ports]]
            path = "/dev/ttyS0"
            """)
        let boards = try #require(table["mcu"]?.tableValue?["boards"]?.tableArrayValue)
        #expect(boards.count == 2)
        #expect(boards[0]["name"] == .string("rev-b"))
        #expect(boards[0]["usb"]?.tableValue?["vendor"] == .integer(0x1209))
        #expect(boards[1]["name"] == .string("uart"))
        #expect(boards[1]["ports"]?.tableArrayValue?.map { $0["path"] } == [.string("/dev/ttyAMA0"), .string("/dev/ttyS0")])
        #expect(boards[1].line == 5)
    }

    @Test("arrays of one type, spanning lines, with comments and a trailing comma")
    func arrays() throws {
        let table = try TOMLParser.parse(
            """
            capabilities = [
                "nfc_reader",   # bit 0
                "ble_scanner",
                # a comment line inside
                "gnss",
            ]
            ints = [1, 0x2, -3]
            floats = [1.5, 2e3]
            empty = [ ]
            after = true
            """)
        #expect(table["capabilities"] == .array([.string("nfc_reader"), .string("ble_scanner"), .string("gnss")]))
        #expect(table["ints"] == .array([.integer(1), .integer(2), .integer(-3)]))
        #expect(table["floats"] == .array([.float(1.5), .float(2000)]))
        #expect(table["empty"] == .array([]))
        #expect(table.line(of: "capabilities") == 1)
        #expect(table.line(of: "after") == 10)
    }

    @Test("an empty document is an empty table")
    func empty() throws {
        #expect(try TOMLParser.parse("").isEmpty)
        #expect(try TOMLParser.parse("# only a comment\n\n").isEmpty)
        #expect(try TOMLParser.parse(Array<UInt8>()).isEmpty)
    }

    @Test("equality ignores key order and line numbers")
    func equality() throws {
        let a = try TOMLParser.parse("x = 1\ny = 2\n[t]\nz = 3")
        let b = try TOMLParser.parse("\n\ny = 2\nx = 1\n\n[t]\n\nz = 3")
        #expect(a == b)
        #expect(a != (try TOMLParser.parse("x = 1\ny = 2\n[t]\nz = 4")))
    }
}
