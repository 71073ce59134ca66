import FairFuelParsers
import Testing

/// Framing, checksum and address: everything before a sentence's own fields.
@Suite struct NMEAParserFramingTests {
    let parser = NMEAParser()

    @Test func checksumEitherCaseIsAccepted() throws {
        #expect(decodeResult("$GPXTE,A,A,0.67,L,N*6f") == .failure(.unsupported(NMEAAddress(text: "GPXTE"))))
        let upper = try parser.parse("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48")
        let lower = try parser.parse("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48".lowercasedChecksum)
        #expect(upper == lower)
    }

    @Test func wrongChecksumNamesBothValues() {
        #expect(decodeResult("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*49") == .failure(.badChecksum(expected: 0x48, actual: 0x49)))
    }

    @Test func missingChecksumIsRefusedByDefault() {
        #expect(decodeResult("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K") == .failure(.missingChecksum))
        #expect(NMEAError.missingChecksum.category == .malformed)
    }

    @Test func missingChecksumIsAcceptedWhenConfigured() throws {
        let lenient = NMEAParser(configuration: NMEAConfiguration(allowMissingChecksum: true))
        guard case .vtg(let vtg) = try lenient.parse("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K") else {
            Issue.record("not a VTG")
            return
        }
        #expect(vtg.courseTrue == 54.7)
    }

    @Test func missingChecksumIsCountedEitherWay() {
        for allow in [false, true] {
            var decoder = NMEADecoder(configuration: NMEAConfiguration(allowMissingChecksum: allow))
            _ = decoder.decode(ArraySlice(Array("$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K".utf8)))
            _ = decoder.decode(ArraySlice(Array(nmea("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K").utf8)))
            #expect(decoder.stats.missingChecksum == 1)
            #expect(decoder.stats.decoded == (allow ? 2 : 1))
            #expect(decoder.stats.malformed == (allow ? 0 : 1))
            #expect(decoder.stats.isConsistent)
        }
    }

    @Test func trailingCRLFIsIgnored() throws {
        let bare = try parser.parse(nmea("GPZDA,160012.71,11,03,2004,-1,00"))
        #expect(try parser.parse(nmea("GPZDA,160012.71,11,03,2004,-1,00") + "\r") == bare)
        #expect(try parser.parse(nmea("GPZDA,160012.71,11,03,2004,-1,00") + "\r\n") == bare)
    }

    @Test(arguments: [
        ("", NMEAError.empty),
        ("\r\n", .empty),
        ("GPRMC,,V,,,,,,,,,,N*53", .badStart(byte: UInt8(ascii: "G"))),
        ("$GPRMC,,V,,,,,,,,,,N*532", .badChecksumField(offset: 20)),
        ("$GPXTE,A,A,0.67,L,N*6g", .badChecksumField(offset: 19)),
        ("$GPXTE,A,A,0.67,L,N*6", .badChecksumField(offset: 19)),
        ("$GPXTE,A,A,0.67,L,N*", .badChecksumField(offset: 19)),
        ("$GPXTE,A,A,0.67,L,N*6F ", .badChecksumField(offset: 19)),
        ("$GPVTG,,,,\u{7F},,,,,N*30", .badByte(offset: 10, byte: 0x7F)),
        ("$GPTXT,hello\r*24", .badByte(offset: 12, byte: 0x0D)),
        ("$GPTXT,he$llo*24", .badByte(offset: 9, byte: 0x24)),
        ("$GPTXT,hello\n$", .badByte(offset: 12, byte: 0x0A)),
        ("$GPRM,foo*00", .badChecksum(expected: 0x42, actual: 0)),
    ])
    func singleFramingDefect(sentence: String, error: NMEAError) {
        #expect(decodeResult(sentence) == .failure(error), "\(sentence.debugDescription)")
    }

    @Test func nonASCIIBytesAreMalformed() {
        var bytes = Array(nmea("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K").utf8)
        bytes[8] = 0xC3
        do throws(NMEAError) {
            _ = try parser.parse(ArraySlice(bytes))
            Issue.record("decoded a non-ASCII sentence")
        } catch {
            #expect(error == .badByte(offset: 8, byte: 0xC3))
        }
    }

    @Test func realReceiversExceed82Bytes() throws {
        // nmea-rtk.log: 91 bytes, 93 with CR LF.
        let long = "$GPGGA,132829.90,4134.49950965,N,09345.03456915,W,2,09,1.0,279.275,M,-31.442,M,14.8,0133*47"
        #expect(long.utf8.count == 91)
        #expect(throws: Never.self) { try parser.parse(long) as NMEASentence? }
    }

    @Test func twoHundredFortyBytesIsTheLimit() {
        let padding240 = String(repeating: "A", count: 240 - "$GPTXT,*00".utf8.count)
        let exact = nmea("GPTXT," + padding240)
        #expect(exact.utf8.count == 240)
        #expect(decodeResult(exact) == .failure(.unsupported(NMEAAddress(text: "GPTXT"))))
        let over = nmea("GPTXT," + padding240 + "A")
        #expect(decodeResult(over) == .failure(.tooLong(length: 241)))
    }

    @Test func tenThousandCharacterLine() {
        let huge = "$GPGGA," + String(repeating: "1,", count: 5000) + "*00"
        #expect(decodeResult(huge) == .failure(.tooLong(length: huge.utf8.count)))
        var decoder = NMEADecoder()
        decoder.decode(line: ArraySlice(Array(huge.utf8))) { _ in Issue.record("decoded junk") }
        #expect(decoder.stats.malformed == 1 && decoder.stats.isConsistent)
    }

    @Test(arguments: [
        "$PGRME,1.7,M,2.4,M,3.0,M*2D",
        "$PSRFTXTVersion GSW3.2.2_3.1.00.12-SDK003P1.01a *78",
        "!AIVDM,1,1,,B,13`kvw001SPBh7RMH1O9O2b0000,0*3E".withChecksum,
        "$HCHDG,101.1,,,7.1,W".withChecksum,
        "$SDDBT,7.7,f,2.3,M,1.3,F".withChecksum,
        "$GPTXT,01,01,02,ANTSTATUS=INIT*25",
        "$GPXTE,A,A,0.67,L,N*6F",
        "$GYOACC,090624,000704.20,0.044215*00".withChecksum,
        "$GNGST,024603.00,3.2,6.6,4.7,47.3,5.8,5.6,22.0".withChecksum,
    ])
    func unsupportedSentencesAreCountedNotErrors(sentence: String) {
        var decoder = NMEADecoder()
        #expect(decoder.decode(ArraySlice(Array(sentence.utf8))) == nil)
        #expect(decoder.stats.unsupported == 1, "\(sentence)")
        #expect(decoder.stats.isConsistent)
    }

    @Test(arguments: ["$gpgga,1*00".withChecksum, "$GP-GA,1".withChecksum, "$,1,2".withChecksum, "$*00", "!".withChecksum])
    func badAddressIsMalformed(sentence: String) {
        guard case .failure(let error) = decodeResult(sentence) else {
            Issue.record("decoded \(sentence)")
            return
        }
        #expect(error.category == .malformed, "\(sentence): \(error)")
    }

    @Test func satelliteTalkers() throws {
        for talker in NMEATalker.satelliteTalkers {
            let sentence = try parser.parse(nmea("\(talker.code)ZDA,160012.71,11,03,2004,-1,00"))
            #expect(sentence.talker == talker)
            #expect(sentence.type == .zda)
            #expect(talker.constellation != nil)
        }
        #expect(NMEATalker.combined.constellation == .multiple)
        #expect(NMEATalker.beidouLegacy.constellation == .beidou && NMEATalker.qzssLegacy.constellation == .qzss)
    }

    /// Marine and other instruments relay positions under their own talker; any two letters are read.
    @Test(arguments: ["IN", "II", "SD", "WI", "EC", "HC", "YX", "ZZ"])
    func anyTwoLetterTalker(code: String) throws {
        let sentence = try parser.parse(nmea("\(code)GLL,4916.45,N,12311.12,W,225444,A,A"))
        #expect(sentence.talker.code == code)
        #expect(sentence.talker.constellation == nil)
        #expect(sentence.gll?.latitude != nil)
    }

    @Test(arguments: ["$G1RMC,1".withChecksum, "$1GGGA,1".withChecksum])
    func talkerWithDigitIsUnsupported(sentence: String) {
        guard case .failure(let error) = decodeResult(sentence) else {
            Issue.record("decoded \(sentence)")
            return
        }
        #expect(error.category == .unsupported, "\(sentence): \(error)")
    }

    @Test func tooFewFieldsNamesTheTable() {
        #expect(decodeResult(nmea("GPGSA,A,1,,,,")) == .failure(.tooFewFields(.gsa, count: 6, minimum: 17)))
        #expect(decodeResult(nmea("GPRMC,1,2")) == .failure(.tooFewFields(.rmc, count: 2, minimum: 9)))
    }

    @Test func errorsDescribeThemselves() {
        #expect(NMEAError.badChecksum(expected: 0x48, actual: 0x49).description == "checksum 49 but the bytes give 48")
        #expect(NMEAError.unsupported(NMEAAddress(text: "PGRME")).description == "unsupported sentence $PGRME")
        #expect(NMEAError.badField(.rmc, field: 3).description == "RMC field 3 is invalid")
    }
}

extension String {
    /// The sentence with `*HH` recomputed over its body (drops any old checksum).
    var withChecksum: String {
        let delimiter = String(prefix(1))
        var body = String(dropFirst())
        if let star = body.firstIndex(of: "*") { body = String(body[..<star]) }
        return nmea(body, delimiter: delimiter)
    }

    /// The sentence with its checksum digits in lower case.
    var lowercasedChecksum: String {
        guard let star = firstIndex(of: "*") else { return self }
        return String(self[...star]) + self[index(after: star)...].lowercased()
    }
}

extension NMEAAddress {
    /// `$` + `text` (tests only).
    init(text: String, delimiter: UInt8 = UInt8(ascii: "$")) {
        let bytes = Array(text.utf8)
        self.init(bytes.span, 0..<bytes.count, delimiter: delimiter)
    }
}
