/// Plain substring search over UTF-8 bytes, for the daemon's few text scans.
///
/// The standard library's `firstRange(of:)` and `contains(_: some StringProtocol)` live in
/// `_StringProcessing`: one call to either links the regex engine's 1.5 MB into the static
/// daemon (0.15 MB of it resident). A byte search is all a log line or an error reason needs.
extension StringProtocol {
    /// The range of the first occurrence of `needle`, or nil; an empty needle is found at the start.
    public func firstRange(ofText needle: String) -> Range<Index>? {
        var needle = needle
        return needle.withUTF8 { wanted -> Range<Index>? in
            let bytes = utf8
            var start = bytes.startIndex
            while true {
                var here = start
                var matched = 0
                while matched < wanted.count, here != bytes.endIndex, bytes[here] == wanted[matched] {
                    matched += 1
                    here = bytes.index(after: here)
                }
                if matched == wanted.count { return start..<here }
                if start == bytes.endIndex { return nil }
                start = bytes.index(after: start)
            }
        }
    }

    /// Whether `needle` occurs in the text (byte for byte: no Unicode normalisation).
    public func containsText(_ needle: String) -> Bool {
        firstRange(ofText: needle) != nil
    }
}
