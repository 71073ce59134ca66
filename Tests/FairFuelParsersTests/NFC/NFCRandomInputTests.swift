import FairFuelCore
import Foundation
import Testing
import TestSupport

@testable import FairFuelParsers

/// Seeded random NDEF bytes through every NDEF parser: no crash, and the counts add up.
///
/// A longer run (same seeds, more inputs):
///
///     FAIRFUEL_RANDOM_INPUTS=20000000 swift test --scratch-path .build-ble -c release \
///         --filter NFCRandomInputTests
@Suite("NFC random input")
struct NFCRandomInputTests {
    static var inputCount: Int {
        ProcessInfo.processInfo.environment["FAIRFUEL_RANDOM_INPUTS"].flatMap(Int.init) ?? 200_000
    }

    /// A valid message of 1...4 records (URI, text, media, empty, driver URI), as bytes.
    static func validMessage(_ generator: inout SeededGenerator) -> [UInt8] {
        let count = Int.random(in: 1...4, using: &generator)
        var bytes: [UInt8] = []
        for index in 0..<count {
            let format: NDEFTypeNameFormat
            var type: [UInt8] = []
            var payload: [UInt8]
            switch Int.random(in: 0...4, using: &generator) {
            case 0:
                format = .wellKnown
                type = [0x55]
                payload = [UInt8.random(in: 0...0x23, using: &generator)] + Array("example.com/x".utf8)
            case 1:
                format = .wellKnown
                type = [0x54]
                payload = [0x02] + Array("enText".utf8)
            case 2:
                format = .media
                type = Array("text/plain".utf8)
                payload = generator.bytes(Int.random(in: 0...(Bool.random(using: &generator) ? 20 : 300), using: &generator))
            case 3:
                format = .empty
                payload = []
            default:
                format = .wellKnown
                type = [0x55]
                payload = [0x00] + Array(DriverURI(driverID: UUID128(high: generator.next(), low: generator.next())).description.utf8)
            }
            let id = format == .empty || Bool.random(using: &generator) ? [] : generator.bytes(Int.random(in: 1...3, using: &generator))
            bytes += try! NDEFEncoder.record(
                format: format, type: type[...], id: id[...], payload: payload[...], isMessageBegin: index == 0,
                isMessageEnd: index == count - 1)
        }
        return bytes
    }

    /// Random bytes a third of the time; otherwise one of `pool`'s valid messages, sometimes
    /// mutated or cut.
    static func input(_ generator: inout SeededGenerator, pool: [[UInt8]]) -> [UInt8] {
        switch Int.random(in: 0...2, using: &generator) {
        case 0:
            return generator.bytes(Int.random(in: 0...48, using: &generator))
        case 1:
            return pool.randomElement(using: &generator)!
        default:
            var bytes = pool.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) { bytes.removeLast(Int.random(in: 0...bytes.count, using: &generator)) }
            return bytes
        }
    }

    @Test func randomNDEF() {
        var generator = SeededGenerator(seed: 0x0DEF_F00D)
        let pool = (0..<512).map { _ in Self.validMessage(&generator) }
        var valid = 0
        var records = 0
        var drivers = 0
        var errors: [String: Int] = [:]
        for _ in 0..<Self.inputCount {
            let bytes = Self.input(&generator, pool: pool)
            do {
                let message = try NDEFMessage(bytes[...])
                let list = Array(message)
                guard list.count == message.recordCount,
                    list.reduce(0, { $0 + $1.encodedByteCount }) == bytes.count,
                    list.first?.isMessageBegin ?? true, list.last?.isMessageEnd ?? true,
                    list.dropFirst().allSatisfy({ !$0.isMessageBegin }), list.dropLast().allSatisfy({ !$0.isMessageEnd }),
                    list.allSatisfy({ !$0.isChunked && $0.typeNameFormat != .unchanged })
                else {
                    Issue.record("inconsistent message \(Hex.string(bytes))")
                    return
                }
                for record in list {
                    if let uri = try? NDEFURIRecord(record) {
                        guard uri.uri.utf8.count == uri.prefix.utf8.count + uri.uriField.count else {
                            Issue.record("URI length for \(Hex.string(bytes))")
                            return
                        }
                    }
                    _ = (try? NDEFTextRecord(record))?.text
                }
                valid += 1
                records += list.count
            } catch {
                errors[Self.caseName(error), default: 0] += 1
            }
            var rest = bytes[...]
            do {
                let record = try NDEFRecord.decode(from: &rest)
                guard record.encodedByteCount + rest.count == bytes.count else {
                    Issue.record("record size for \(Hex.string(bytes))")
                    return
                }
            } catch {
                guard rest.count == bytes.count else {
                    Issue.record("a failed decode consumed input: \(Hex.string(bytes))")
                    return
                }
            }
            _ = (try? NDEFURIRecord(payload: bytes[...], allowingReservedPrefix: true))?.uri
            _ = (try? NDEFTextRecord(payload: bytes[...]))?.text
            if let identities = try? NFCTagIdentities(technology: .iso14443A, uid: [4, 1, 2, 3, 4, 5, 6], ndef: bytes[...]) {
                if identities.driverID != nil { drivers += 1 }
                guard (identities.ndefError == nil) == ((try? NDEFMessage(bytes[...])) != nil) else {
                    Issue.record("identities disagree with the message for \(Hex.string(bytes))")
                    return
                }
            }
        }
        let errorCount = errors.values.reduce(0, +)
        print("NDEF random input: \(Self.inputCount) inputs, \(valid) valid messages (\(records) records, \(drivers) with a driver URI), \(errorCount) refused: \(errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        #expect(valid + errorCount == Self.inputCount)
        #expect(valid > 0 && drivers > 0 && errorCount > 0)
    }

    static func caseName(_ error: NDEFError) -> String {
        switch error {
        case .truncated: "truncated"
        case .reservedTypeNameFormat: "reservedTypeNameFormat"
        case .missingType: "missingType"
        case .unexpectedField: "unexpectedField"
        case .missingMessageBegin: "missingMessageBegin"
        case .unexpectedMessageBegin: "unexpectedMessageBegin"
        case .missingMessageEnd: "missingMessageEnd"
        case .trailingBytes: "trailingBytes"
        case .chunkedRecord: "chunkedRecord"
        case .unchangedOutsideChunk: "unchangedOutsideChunk"
        default: "other"
        }
    }

    @Test func randomUIDText() throws {
        var generator = SeededGenerator(seed: 0x7A6)
        let alphabet = Array("0123456789abcdefABCDEF:: g-")
        var parsed = 0
        for _ in 0..<20_000 {
            let text = String((0..<Int.random(in: 0...32, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            if let uid = try? TagUID(parsing: text) {
                parsed += 1
                #expect(try TagUID(parsing: uid.description) == uid)
                #expect(try TagUID(parsing: uid.plainHex) == uid)
            }
        }
        #expect(parsed > 0)
    }
}
