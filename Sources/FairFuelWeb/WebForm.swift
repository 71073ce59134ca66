/// A submitted form's fields (URL-encoded or multipart) and its files, parsed within the body's limit.
struct WebForm: Sendable {
    struct File: Sendable {
        var fileName: String
        var mediaType: String?
        /// The part's bytes, a view into the request body: a photo is not copied out of it.
        var bytes: ArraySlice<UInt8>
    }

    var fields: [String: String] = [:]
    var files: [String: File] = [:]

    subscript(_ name: String) -> String? {
        guard let value = fields[name]?.trimmingCharacters(), !value.isEmpty else { return nil }
        return value
    }

    /// The body as its `Content-Type` says; anything else is refused.
    static func parse(_ body: [UInt8], contentType: String?) throws(WebError) -> WebForm {
        let type = (contentType ?? "").lowercased()
        if type.hasPrefix("application/x-www-form-urlencoded") {
            return WebForm(fields: urlEncoded(String(decoding: body, as: UTF8.self)))
        }
        if type.hasPrefix("multipart/form-data"), let boundary = parameter("boundary", of: contentType ?? "") {
            return try multipart(body, boundary: boundary)
        }
        throw .badRequest("a form must be sent as application/x-www-form-urlencoded or multipart/form-data")
    }

    /// `a=1&b=x+y` into fields (the last of a repeated name wins).
    static func urlEncoded(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            fields[percentDecoded(parts[0])] = parts.count > 1 ? percentDecoded(parts[1]) : ""
        }
        return fields
    }

    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), utf8.count >= 2,
                      let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `name=value` or `name="value"` among a header's `;` parameters.
    static func parameter(_ name: String, of header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters().lowercased() == name else { continue }
            var value = pair[1].trimmingCharacters()
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }

    /// RFC 7578: parts between `--boundary` lines, each with its headers; a file part keeps its bytes.
    static func multipart(_ body: [UInt8], boundary: String) throws(WebError) -> WebForm {
        let delimiter = Array("--\(boundary)".utf8)
        var form = WebForm()
        var starts: [Int] = []
        var index = 0
        while let found = find(delimiter, in: body, from: index) {
            starts.append(found)
            index = found + delimiter.count
        }
        guard starts.count >= 2 else { throw .badRequest("the multipart form has no parts") }
        for (start, end) in zip(starts, starts.dropFirst()) {
            var partStart = start + delimiter.count
            // The line break after the delimiter, and the one before the next (part of that delimiter).
            if body[partStart...].starts(with: [13, 10]) { partStart += 2 }
            var partEnd = end
            if partEnd >= 2, body[partEnd - 2] == 13, body[partEnd - 1] == 10 { partEnd -= 2 }
            guard partStart <= partEnd, let headerEnd = find([13, 10, 13, 10], in: body, from: partStart), headerEnd <= partEnd else {
                throw .badRequest("a part of the multipart form has no headers")
            }
            let headers = String(decoding: body[partStart..<headerEnd], as: UTF8.self)
            let content = body[(headerEnd + 4)..<partEnd]
            var disposition = ""
            var mediaType: String?
            for line in headers.split(separator: "\r\n") {
                let pair = line.split(separator: ":", maxSplits: 1)
                guard pair.count == 2 else { continue }
                switch pair[0].trimmingCharacters().lowercased() {
                case "content-disposition": disposition = pair[1].trimmingCharacters()
                case "content-type": mediaType = pair[1].trimmingCharacters()
                default: break
                }
            }
            guard let name = parameter("name", of: disposition) else { throw .badRequest("a part of the multipart form has no name") }
            if let fileName = parameter("filename", of: disposition) {
                if !fileName.isEmpty || !content.isEmpty { form.files[name] = File(fileName: fileName, mediaType: mediaType, bytes: content) }
            } else {
                form.fields[name] = String(decoding: content, as: UTF8.self)
            }
        }
        return form
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line breaks.
    func trimmingCharacters() -> String {
        let scalars = unicodeScalars
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
