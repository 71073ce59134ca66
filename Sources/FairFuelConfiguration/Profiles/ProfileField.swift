/// One key of a profile section: how to read it from TOML, check it, and write it back.
///
/// Sections and keys are listed once, in `ProfileSchema`s, so that reading,
/// unknown-key checks and rendering cannot disagree.
struct ProfileField<Profile: Sendable>: Sendable {
    /// Where a value came from, for error messages.
    struct Origin {
        /// `section.key`.
        var name: String
        /// 0 for a value that came from no file.
        var line: Int

        var fileLine: Int? { line > 0 ? line : nil }
    }

    let key: String
    /// When true the key has no default and must be in the file.
    let isRequired: Bool
    let decode: @Sendable (inout Profile, TOMLValue, Origin) throws(ProfileError) -> Void
    /// nil leaves the key out (an optional that is not set).
    let encode: @Sendable (Profile) -> TOMLValue?
    /// The values an integer key allows; nil for any other kind of key.
    var integerRange: ClosedRange<Int64>? = nil
}

extension ProfileField {
    /// An integer in `range`; `rule` explains it and `check` adds a condition beyond the range.
    static func integer<T: FixedWidthInteger & Sendable>(
        _ key: String, _ path: WritableKeyPath<Profile, T> & Sendable, _ range: ClosedRange<Int64>,
        _ rule: String? = nil, required: Bool = false, check: (@Sendable (Int64) -> Bool)? = nil
    ) -> ProfileField {
        ProfileField(
            key: key, isRequired: required,
            decode: { profile, value, origin throws(ProfileError) in
                profile[keyPath: path] = try Self.checkedInteger(value, origin, range, rule, check)
            },
            encode: { .integer(Int64($0[keyPath: path])) }, integerRange: range)
    }

    /// Like `integer`, for a key that may be absent (nil).
    static func optionalInteger<T: FixedWidthInteger & Sendable>(
        _ key: String, _ path: WritableKeyPath<Profile, T?> & Sendable, _ range: ClosedRange<Int64>,
        _ rule: String? = nil
    ) -> ProfileField {
        ProfileField(
            key: key, isRequired: false,
            decode: { profile, value, origin throws(ProfileError) in
                profile[keyPath: path] = try Self.checkedInteger(value, origin, range, rule, nil) as T
            },
            encode: { profile in profile[keyPath: path].map { .integer(Int64($0)) } }, integerRange: range)
    }

    private static func checkedInteger<T: FixedWidthInteger>(
        _ value: TOMLValue, _ origin: Origin, _ range: ClosedRange<Int64>, _ rule: String?,
        _ check: (@Sendable (Int64) -> Bool)?
    ) throws(ProfileError) -> T {
        guard let number = value.integerValue else {
            throw .wrongType(line: origin.line, key: origin.name, expected: "integer", found: value.typeName)
        }
        guard range.contains(number), check?(number) ?? true, let typed = T(exactly: number) else {
            let allowed = "it must be \(range.lowerBound)...\(range.upperBound)" + (rule.map { " (\($0))" } ?? "")
            throw .outOfRange(line: origin.fileLine, key: origin.name, value: String(number), allowed: allowed)
        }
        return typed
    }

    static func boolean(_ key: String, _ path: WritableKeyPath<Profile, Bool> & Sendable) -> ProfileField {
        ProfileField(
            key: key, isRequired: false,
            decode: { profile, value, origin throws(ProfileError) in
                guard let flag = value.booleanValue else {
                    throw .wrongType(line: origin.line, key: origin.name, expected: "boolean", found: value.typeName)
                }
                profile[keyPath: path] = flag
            },
            encode: { .boolean($0[keyPath: path]) })
    }

    /// A string that `rule` accepts.
    static func string(
        _ key: String, _ path: WritableKeyPath<Profile, String> & Sendable, _ rule: ProfileStringRule,
        required: Bool = false
    ) -> ProfileField {
        ProfileField(
            key: key, isRequired: required,
            decode: { profile, value, origin throws(ProfileError) in
                profile[keyPath: path] = try Self.checkedString(value, origin, rule)
            },
            encode: { .string($0[keyPath: path]) })
    }

    /// The string in `value` when `rule` accepts it.
    private static func checkedString(_ value: TOMLValue, _ origin: Origin, _ rule: ProfileStringRule) throws(ProfileError) -> String {
        guard let text = value.stringValue else {
            throw .wrongType(line: origin.line, key: origin.name, expected: "string", found: value.typeName)
        }
        if let problem = rule.problem(with: text) {
            throw .outOfRange(line: origin.fileLine, key: origin.name, value: TOMLWriter.quoted(text), allowed: problem)
        }
        return text
    }

    /// Like `string`, for a key that may be absent (nil).
    static func optionalString(
        _ key: String, _ path: WritableKeyPath<Profile, String?> & Sendable, _ rule: ProfileStringRule
    ) -> ProfileField {
        ProfileField(
            key: key, isRequired: false,
            decode: { profile, value, origin throws(ProfileError) in
                profile[keyPath: path] = try Self.checkedString(value, origin, rule)
            },
            encode: { profile in profile[keyPath: path].map { .string($0) } })
    }

    /// One of an enum's raw values.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ path: WritableKeyPath<Profile, Choice> & Sendable, required: Bool = false
    ) -> ProfileField where Choice.RawValue == String {
        ProfileField(
            key: key, isRequired: required,
            decode: { profile, value, origin throws(ProfileError) in
                guard let text = value.stringValue else {
                    throw .wrongType(line: origin.line, key: origin.name, expected: "string", found: value.typeName)
                }
                guard let choice = Choice(rawValue: text) else {
                    let choices = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    throw .outOfRange(
                        line: origin.fileLine, key: origin.name, value: TOMLWriter.quoted(text),
                        allowed: "it must be one of \(choices)")
                }
                profile[keyPath: path] = choice
            },
            encode: { .string($0[keyPath: path].rawValue) })
    }
}
