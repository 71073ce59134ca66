/// The sections and keys of one kind of profile, in the order they are documented and rendered.
struct ProfileSchema<Profile: Sendable>: Sendable {
    struct Section: Sendable {
        let name: String
        let fields: [ProfileField<Profile>]

        init(_ name: String, _ fields: [ProfileField<Profile>]) {
            self.name = name
            self.fields = fields
        }
    }

    let sections: [Section]

    var sectionNames: [String] { sections.map(\.name) }

    /// Sets `profile`'s fields from `root`; keys the document leaves out keep
    /// the value `profile` had. Returns the line of each key that was set, by
    /// `section.key`.
    ///
    /// Unknown sections and keys are refused first, in document order, then
    /// each value is checked in schema order.
    func decode(_ root: TOMLTable, into profile: inout Profile) throws(ProfileError) -> [String: Int] {
        for entry in root.entries {
            switch entry.value {
            case let .table(table):
                guard let section = sections.first(where: { $0.name == entry.key }) else {
                    throw .unknownSection(line: entry.line, name: entry.key, known: sectionNames)
                }
                try checkKeys(of: table, in: section)
            case .tableArray:
                if sections.contains(where: { $0.name == entry.key }) {
                    throw .wrongType(
                        line: entry.line, key: entry.key, expected: "section [\(entry.key)]",
                        found: "array of tables [[\(entry.key)]]")
                }
                throw .unknownSection(line: entry.line, name: entry.key, known: sectionNames)
            default:
                throw .unknownKey(line: entry.line, section: "", key: entry.key, known: sectionNames)
            }
        }
        var lines: [String: Int] = [:]
        for section in sections {
            let table = root[section.name]?.tableValue
            for field in section.fields {
                let name = section.name + "." + field.key
                if let table, let value = table[field.key], let line = table.line(of: field.key) {
                    try field.decode(&profile, value, .init(name: name, line: line))
                    if line > 0 { lines[name] = line }
                } else if field.isRequired {
                    throw .missingKey(section: section.name, key: field.key)
                }
            }
        }
        return lines
    }

    private func checkKeys(of table: TOMLTable, in section: Section) throws(ProfileError) {
        let known = section.fields.map(\.key)
        for entry in table.entries {
            switch entry.value {
            case .table, .tableArray:
                throw .unknownSection(line: entry.line, name: section.name + "." + entry.key, known: sectionNames)
            default:
                if !known.contains(entry.key) {
                    throw .unknownKey(line: entry.line, section: section.name, key: entry.key, known: known)
                }
            }
        }
    }

    /// Every section and key of `profile`, for rendering.
    func encode(_ profile: Profile) -> TOMLTable {
        var root = TOMLTable()
        for section in sections {
            var table = TOMLTable()
            for field in section.fields {
                if let value = field.encode(profile) { table.insert(field.key, value) }
            }
            root.insert(section.name, .table(table))
        }
        return root
    }
}
