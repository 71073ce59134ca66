/// Reads one integer or float token by TOML's rules.
struct NumberScanner {
    let token: [UInt8]
    let text: String
    let line: Int

    func scan() throws(TOMLError) -> TOMLValue {
        if token.count > 2, token[0] == TOMLBytes.zero {
            switch token[1] {
            case UInt8(ascii: "x"): return .integer(try radixInteger(16))
            case UInt8(ascii: "o"): return .integer(try radixInteger(8))
            case UInt8(ascii: "b"): return .integer(try radixInteger(2))
            default: break
            }
        }
        if token.contains(where: { $0 == TOMLBytes.dot || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            return .float(try float())
        }
        return .integer(try decimalInteger())
    }

    private var invalid: TOMLError { .invalidNumber(line: line, text: text) }

    /// Digits of `radix` with single underscores between digits; returns them without underscores.
    private func digitRun(_ slice: ArraySlice<UInt8>, radix: Int) throws(TOMLError) -> [UInt8] {
        var digits: [UInt8] = []
        var previousWasDigit = false
        for byte in slice {
            if byte == TOMLBytes.underscore {
                guard previousWasDigit else { throw invalid }
                previousWasDigit = false
                continue
            }
            guard let value = TOMLBytes.hexValue(byte), Int(value) < radix else { throw invalid }
            digits.append(value)
            previousWasDigit = true
        }
        guard previousWasDigit else { throw invalid }
        return digits
    }

    private func radixInteger(_ radix: Int) throws(TOMLError) -> Int64 {
        let digits = try digitRun(token[2...], radix: radix)
        var value: Int64 = 0
        for digit in digits {
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: Int64(radix))
            let (sum, overflowB) = shifted.addingReportingOverflow(Int64(digit))
            if overflowA || overflowB { throw .integerOverflow(line: line, text: text) }
            value = sum
        }
        return value
    }

    private func decimalInteger() throws(TOMLError) -> Int64 {
        let negative = token.first == TOMLBytes.minus
        let body = token.first == TOMLBytes.plus || negative ? token.dropFirst() : token[...]
        let digits = try digitRun(body, radix: 10)
        if digits.count > 1, digits[0] == 0 { throw invalid }
        var value: Int64 = 0
        for digit in digits {
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) =
                negative
                ? shifted.subtractingReportingOverflow(Int64(digit))
                : shifted.addingReportingOverflow(Int64(digit))
            if overflowA || overflowB { throw .integerOverflow(line: line, text: text) }
            value = sum
        }
        return value
    }

    /// `[+-] int [. digits] [e [+-] digits]`, with a fraction or an exponent or both.
    private func float() throws(TOMLError) -> Double {
        var body = token[...]
        var canonical: [UInt8] = []
        if let sign = body.first, sign == TOMLBytes.plus || sign == TOMLBytes.minus {
            canonical.append(sign)
            body = body.dropFirst()
        }
        let exponentAt = body.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = exponentAt.map { body[..<$0] } ?? body
        let dotAt = mantissa.firstIndex(of: TOMLBytes.dot)
        let integerPart = dotAt.map { mantissa[..<$0] } ?? mantissa
        let integerDigits = try digitRun(integerPart, radix: 10)
        if integerDigits.count > 1, integerDigits[0] == 0 { throw invalid }
        canonical += integerDigits.map { $0 + TOMLBytes.zero }
        if let dotAt {
            let fraction = try digitRun(mantissa[(dotAt + 1)...], radix: 10)
            canonical.append(TOMLBytes.dot)
            canonical += fraction.map { $0 + TOMLBytes.zero }
        }
        if let exponentAt {
            var exponent = body[(exponentAt + 1)...]
            canonical.append(UInt8(ascii: "e"))
            if let sign = exponent.first, sign == TOMLBytes.plus || sign == TOMLBytes.minus {
                canonical.append(sign)
                exponent = exponent.dropFirst()
            }
            canonical += try digitRun(exponent, radix: 10).map { $0 + TOMLBytes.zero }
        }
        guard let value = Double(String(decoding: canonical, as: UTF8.self)), value.isFinite else { throw invalid }
        return value
    }
}
