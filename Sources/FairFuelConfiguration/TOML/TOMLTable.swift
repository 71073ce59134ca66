/// A TOML table: keys in document order, each with the line that set it.
///
/// Equality compares keys and values only: neither order nor line numbers,
/// so a document and its re-rendering compare equal.
public struct TOMLTable: Sendable, Equatable {
    /// One key of the table and where it was set.
    public struct Entry: Sendable {
        public var key: String
        public var value: TOMLValue
        /// 1-based line of the key (for a table or array-of-tables element: its header).
        public var line: Int
    }

    public private(set) var entries: [Entry] = []
    /// 1-based line of the table's header; 0 for the root table and for tables
    /// made only by built-in code.
    public var line: Int
    /// True once a `[header]` named this table; a table made implicitly by
    /// `[a.b]` may still be defined once by `[a]`.
    var isDefinedByHeader: Bool

    public init(line: Int = 0) {
        self.line = line
        isDefinedByHeader = false
    }

    init(line: Int, definedByHeader: Bool) {
        self.line = line
        isDefinedByHeader = definedByHeader
    }

    public var keys: [String] { entries.map(\.key) }
    public var isEmpty: Bool { entries.isEmpty }

    public subscript(key: String) -> TOMLValue? {
        index(of: key).map { entries[$0].value }
    }

    /// The line that set `key`, or nil when the table has no such key.
    public func line(of key: String) -> Int? {
        index(of: key).map { entries[$0].line }
    }

    /// Adds `key`; returns false (changing nothing) when the key is already there.
    @discardableResult
    public mutating func insert(_ key: String, _ value: TOMLValue, line: Int = 0) -> Bool {
        if index(of: key) != nil { return false }
        entries.append(Entry(key: key, value: value, line: line))
        return true
    }

    /// Sets `key`, replacing any value it had and keeping its place.
    public mutating func set(_ key: String, _ value: TOMLValue, line: Int = 0) {
        if let index = index(of: key) {
            entries[index].value = value
            entries[index].line = line
        } else {
            entries.append(Entry(key: key, value: value, line: line))
        }
    }

    func index(of key: String) -> Int? {
        entries.firstIndex { $0.key == key }
    }

    mutating func replaceValue(at index: Int, with value: TOMLValue) {
        entries[index].value = value
    }

    public static func == (a: TOMLTable, b: TOMLTable) -> Bool {
        guard a.entries.count == b.entries.count else { return false }
        for entry in a.entries where b[entry.key] != entry.value { return false }
        return true
    }
}

extension TOMLTable {
    /// Runs `body` on the table at `path` below this one, making missing tables
    /// implicitly; an array of tables stands for its last element.
    mutating func withTable(
        at path: ArraySlice<String>, walked: [String], line: Int,
        _ body: (inout TOMLTable) throws(TOMLError) -> Void
    ) throws(TOMLError) {
        guard let key = path.first else {
            try body(&self)
            return
        }
        let walkedHere = walked + [key]
        guard let position = index(of: key) else {
            var table = TOMLTable(line: line, definedByHeader: false)
            try table.withTable(at: path.dropFirst(), walked: walkedHere, line: line, body)
            insert(key, .table(table), line: line)
            return
        }
        switch entries[position].value {
        case var .table(table):
            try table.withTable(at: path.dropFirst(), walked: walkedHere, line: line, body)
            replaceValue(at: position, with: .table(table))
        case var .tableArray(tables):
            try tables[tables.count - 1].withTable(at: path.dropFirst(), walked: walkedHere, line: line, body)
            replaceValue(at: position, with: .tableArray(tables))
        default:
            throw .keyIsNotATable(line: line, key: walkedHere.joined(separator: "."))
        }
    }
}
