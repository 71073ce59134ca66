import FairFuelCore
import Foundation
import Testing

@testable import FairFuelParsers

/// NFC test data whose licences forbid copying it here (proxmark3 GPL-3.0, nfcpy EUPL-1.1,
/// libnfc LGPL-3.0): read from ../shared/corpus/nfc/ when present, skipped with the reason when not.
@Suite("NFC corpus (read in place)")
struct NFCCorpusTests {
    /// proxmark3's ISO 14443-A anticollision traces: the UIDs with their ATQA and final SAK.
    @Test(.enabled(if: NFCFixtures.present("proxmark3/traces/summary.json"),
                   "proxmark3 traces are GPL-3.0, so they are not copied into this package; ../shared/corpus/nfc/proxmark3/ is absent"))
    func proxmark3UIDsWithATQAAndSAK() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: NFCFixtures.corpus("proxmark3/traces/summary.json")))
        let traces = try JSONSerialization.jsonObject(with: data) as! [[String: Any]]
        var checked = 0
        var rebuiltCount = 0
        for trace in traces {
            let name = trace["trace"] as! String
            let atqa = UInt16((trace["atqa_hex"] as! String), radix: 16)!
            for entry in trace["uids_len_finalsak"] as! [[Any]] {
                let bytes = try NFCFixtures.bytes(entry[0] as! String)
                let sak = UInt8((entry[2] as! String), radix: 16)!
                let uid = try TagUID(bytes: bytes[...], technology: .iso14443A)
                #expect(uid.count == entry[1] as? Int, "\(name)")
                try uid.checkISO14443A(atqa: atqa)
                #expect(sak & 0x04 == 0, "\(name): the final SAK says the UID is complete")
                #expect(try TagUID(parsing: uid.description) == uid)
                checked += 1
            }
            // Where the decoded trace is there, rebuild the UID from its cascade levels too.
            let textPath = NFCFixtures.corpus("proxmark3/traces/\(name).txt")
            if let text = try? String(contentsOfFile: textPath, encoding: .utf8),
                let rebuilt = Self.uidFromAnticollision(text)
            {
                let expected = try NFCFixtures.bytes((trace["uids_len_finalsak"] as! [[Any]])[0][0] as! String)
                #expect(rebuilt == expected, "\(name): UID from the cascade levels")
                rebuiltCount += 1
            }
        }
        print("proxmark3: \(checked) UIDs (4 and 7 bytes) accepted with their ATQA and SAK; \(rebuiltCount) rebuilt from the anticollision frames")
        #expect(checked == 9 && rebuiltCount >= 3)
    }

    /// The UID in a decoded trace: each cascade level's 4 bytes (BCC checked), less the cascade tag 0x88.
    static func uidFromAnticollision(_ text: String) -> [UInt8]? {
        var uid: [UInt8] = []
        for line in text.split(separator: "\n") where line.contains("UID CLn bytes") {
            let fields = line.split(separator: " ")
            guard let tag = fields.firstIndex(of: "TAG"), fields.count > tag + 5 else { return nil }
            let level = fields[(tag + 1)...(tag + 4)].compactMap { UInt8($0, radix: 16) }
            guard level.count == 4, let bcc = UInt8(fields[tag + 5], radix: 16), level.reduce(0, ^) == bcc else {
                return nil
            }
            uid += level.first == 0x88 ? Array(level.dropFirst()) : level
            if level.first != 0x88 { break }
        }
        return uid.isEmpty ? nil : uid
    }

    /// nfcpy's NFC-A target parameters: its SDD_RES values are UIDs, some of impossible lengths.
    @Test(.enabled(if: NFCFixtures.present("nfcpy/nfca_target_params_seen_in_tests.tsv"),
                   "nfcpy's tables are EUPL-1.1, so they are not copied into this package; ../shared/corpus/nfc/nfcpy/ is absent"))
    func nfcpyUIDLengths() throws {
        let text = try String(contentsOfFile: NFCFixtures.corpus("nfcpy/nfca_target_params_seen_in_tests.tsv"), encoding: .utf8)
        var accepted = 0
        var refused = 0
        for row in NFCFixtures.tsvRows(text) where row.first == "sdd_res" {
            let bytes = try NFCFixtures.bytes(row[1])
            let possible = [4, 7, 10].contains(bytes.count)
            do {
                let uid = try TagUID(bytes: bytes[...], technology: .iso14443A)
                #expect(possible && uid.plainHex == row[1].uppercased())
                accepted += 1
            } catch {
                #expect(!possible && error == .impossibleUIDLength(technology: .iso14443A, length: bytes.count))
                refused += 1
            }
        }
        print("nfcpy: \(accepted) NFC-A UIDs accepted, \(refused) of impossible length (8, 11) refused; the corpus holds no nfcpy tag images, so no NDEF from them")
        #expect(accepted == 11 && refused == 3)
    }

    /// libnfc's card table: what ATQA each card answers, named with its UID size.
    @Test(.enabled(if: NFCFixtures.present("libnfc/atqa_sak_card_table.tsv"),
                   "libnfc's table is LGPL-3.0, so it is not copied into this package; ../shared/corpus/nfc/libnfc/ is absent"))
    func libnfcATQAUIDSizes() throws {
        let text = try String(contentsOfFile: NFCFixtures.corpus("libnfc/atqa_sak_card_table.tsv"), encoding: .utf8)
        var checked = 0
        for row in NFCFixtures.tsvRows(text) {
            let atqa = UInt16(row[0].dropFirst(2), radix: 16)!
            let mask = UInt16(row[1].dropFirst(2), radix: 16)!
            let name = row[2]
            let expected: Int? =
                name.contains("7 Byte UID") || name.contains("Ultralight") || name.contains("DESFire") ? 7
                : name.contains("4 Byte UID") || name.contains("Classic") || name.contains("Mini") ? 4 : nil
            // Only rows whose mask keeps the UID size bits say anything about them.
            guard let expected, mask & 0x00C0 == 0x00C0 else { continue }
            #expect(TagUID.iso14443AUIDLength(atqa: atqa) == expected, "\(name) ATQA \(row[0])")
            checked += 1
        }
        print("libnfc: \(checked) card types' ATQA UID size bits agree with their names")
        #expect(checked == 29)
    }
}
