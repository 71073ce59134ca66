/// What a string key must look like.
enum ProfileStringRule: Sendable {
    case nonEmpty
    /// An absolute path: a service started by systemd runs in `/`, so a relative path would be a trap.
    case absolutePath
    /// A POSIX group or user name: `[a-z_][a-z0-9_-]*`, at most 32 characters.
    case accountName
    /// A profile name: lower-case letters, digits and `-`.
    case profileName
    /// A host name, or an IPv4 or IPv6 address without brackets.
    case host
    /// `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`.
    case uplinkURL
    /// An MQTT client id: printable ASCII without spaces, at most 64 bytes; empty for the default.
    case mqttClientID
    /// An MQTT topic prefix: levels of printable ASCII without `+`, `#` or spaces, no empty level.
    case topicPrefix
    /// Home Assistant's discovery prefix: a topic prefix, or empty for none.
    case discoveryPrefix
    /// A systemd credential name: a file name in `$CREDENTIALS_DIRECTORY`, no `/`.
    case credentialName

    /// Why `text` is refused, or nil when it is accepted.
    func problem(with text: String) -> String? {
        let bytes = Array(text.utf8)
        func all(_ allowed: (UInt8) -> Bool) -> Bool { bytes.allSatisfy(allowed) }
        func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        switch self {
        case .nonEmpty:
            return text.isEmpty ? "it must not be empty" : nil
        case .absolutePath:
            guard bytes.first == UInt8(ascii: "/"), bytes.count > 1 else {
                return "it must be an absolute path, starting with /"
            }
            return bytes.contains(0) ? "it must not contain a NUL character" : nil
        case .accountName:
            let valid =
                (1...32).contains(bytes.count) && (isLower(bytes[0]) || bytes[0] == UInt8(ascii: "_"))
                && all { isLower($0) || isDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
            return valid ? nil : "it must be a group name: lower-case letters, digits, _ and -, at most 32"
        case .profileName:
            let valid =
                !bytes.isEmpty && bytes.count <= 64 && all { isLower($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
            return valid ? nil : "it must be lower-case letters, digits and -, like the file name"
        case .host:
            let valid =
                !bytes.isEmpty && bytes.count <= 253
                && all {
                    isLower($0) || isDigit($0) || ($0 >= 0x41 && $0 <= 0x5A) || $0 == UInt8(ascii: ".")
                        || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":")
                }
            return valid ? nil : "it must be a host name or an IP address"
        case .uplinkURL:
            return UplinkEndpoint.problem(with: text)
        case .mqttClientID:
            let valid = bytes.count <= 64 && all { $0 > 0x20 && $0 < 0x7F }
            return valid ? nil : "it must be printable ASCII without spaces, at most 64 characters (empty: fairfuel-<vehicle id>)"
        case .topicPrefix:
            let levels = text.split(separator: "/", omittingEmptySubsequences: false)
            let valid = !bytes.isEmpty && bytes.count <= 128 && levels.allSatisfy { !$0.isEmpty }
                && all { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "#") }
            return valid ? nil : "it must be topic levels like fairfuel or home/cars: no +, #, spaces or empty level"
        case .discoveryPrefix:
            guard !text.isEmpty, let problem = ProfileStringRule.topicPrefix.problem(with: text) else { return nil }
            return problem + " (or empty: no Home Assistant discovery)"
        case .credentialName:
            let valid = !bytes.isEmpty && bytes.count <= 255 && text != "." && text != ".."
                && all { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }
            return valid ? nil : "it must be a LoadCredential= name (a file name, no /)"
        }
    }
}
