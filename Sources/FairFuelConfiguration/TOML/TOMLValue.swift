/// A value in the TOML subset that `TOMLParser` reads.
///
/// Arrays hold scalars of one type only; nested arrays and inline tables are
/// outside the subset.
public enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])
    case table(TOMLTable)
    /// `[[name]]` sections, in document order.
    case tableArray([TOMLTable])

    /// The kind, as error messages name it: `string`, `integer`, `array of tables`, ...
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .float: "float"
        case .boolean: "boolean"
        case .array: "array"
        case .table: "table"
        case .tableArray: "array of tables"
        }
    }

    public var stringValue: String? {
        if case let .string(value) = self { value } else { nil }
    }

    public var integerValue: Int64? {
        if case let .integer(value) = self { value } else { nil }
    }

    public var floatValue: Double? {
        if case let .float(value) = self { value } else { nil }
    }

    public var booleanValue: Bool? {
        if case let .boolean(value) = self { value } else { nil }
    }

    public var arrayValue: [TOMLValue]? {
        if case let .array(value) = self { value } else { nil }
    }

    public var tableValue: TOMLTable? {
        if case let .table(value) = self { value } else { nil }
    }

    public var tableArrayValue: [TOMLTable]? {
        if case let .tableArray(value) = self { value } else { nil }
    }
}
