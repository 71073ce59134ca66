/// A record as one text line: fields separated by TAB, ending in LF; an empty field is null.
public enum PullRecordLine {
    /// The line for `fields`; a TAB, CR or LF inside a field becomes a space.
    public static func encode(_ fields: [String]) -> String {
        var line = ""
        for (index, field) in fields.enumerated() {
            if index > 0 { line += "\t" }
            for scalar in field.unicodeScalars {
                line.unicodeScalars.append(scalar == "\t" || scalar == "\n" || scalar == "\r" ? " " : scalar)
            }
        }
        return line + "\n"
    }

    /// The lines of a page's text, each split into its fields.
    public static func decode(_ text: [UInt8]) -> [[String]] {
        String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }
}
