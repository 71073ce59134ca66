import FairFuelStore

/// A `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]` URL, as libpq
/// and every managed PostgreSQL write it. Without a password in the URL, `PGPASSWORD` is used (so
/// that it need not be on a command line `ps` shows).
public struct HubPostgresURL: Sendable, Equatable {
    public enum TLSMode: String, Sendable { case disable, prefer, require }

    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var tls: TLSMode

    /// The URL without its password, for messages.
    public var redacted: String { "postgres://\(user)@\(host):\(port)/\(database)" + (tls == .disable ? "" : "?sslmode=\(tls.rawValue)") }

    /// Whether `text` names a PostgreSQL server rather than a file.
    public static func isPostgresURL(_ text: String) -> Bool { text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") }

    /// Parses `text`, or says what is wrong with it (never echoing a password).
    public static func parse(_ text: String, environment password: String? = nil) throws(StoreError) -> HubPostgresURL {
        guard let schemeEnd = text.range(of: "://"), isPostgresURL(text) else { throw .invalid("not a postgres:// URL") }
        var rest = Substring(text[schemeEnd.upperBound...])
        var tls = TLSMode.disable
        if let question = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: question)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, parts[0] == "sslmode" else { throw .invalid("postgres:// URL: only the option sslmode is understood") }
                // libpq's verify-ca and verify-full are what `require` does here: the system's CAs and the host name checked.
                guard let mode = TLSMode(rawValue: parts[1]) ?? (parts[1].hasPrefix("verify-") ? .require : nil) else {
                    throw .invalid("postgres:// URL: sslmode is disable, prefer or require")
                }
                tls = mode
            }
            rest = rest[..<question]
        }
        guard let at = rest.lastIndex(of: "@") else { throw .invalid("postgres:// URL: no USER@ before the host") }
        let userInfo = rest[..<at].split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let hostPart = rest[rest.index(after: at)...]
        guard let slash = hostPart.firstIndex(of: "/") else { throw .invalid("postgres:// URL: no /DATABASE after the host") }
        let database = try decodePercent(String(hostPart[hostPart.index(after: slash)...]))
        let hostPort = hostPart[..<slash]
        var host = String(hostPort)
        var port = 5432
        if let colon = hostPort.lastIndex(of: ":"), !hostPort.hasSuffix("]") {
            guard let number = Int(hostPort[hostPort.index(after: colon)...]), (1...65_535).contains(number) else {
                throw .invalid("postgres:// URL: the port is 1 to 65535")
            }
            port = number
            host = String(hostPort[..<colon])
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let user = try decodePercent(userInfo[0])
        guard !user.isEmpty, !host.isEmpty, !database.isEmpty, !database.contains("/") else {
            throw .invalid("postgres:// URL: USER, HOST and DATABASE must not be empty")
        }
        let urlPassword = userInfo.count == 2 ? try decodePercent(userInfo[1]) : nil
        return HubPostgresURL(user: user, password: urlPassword ?? password, host: host, port: port, database: database, tls: tls)
    }

    /// `%XX` escapes (a password with '@' or ':' in it) as UTF-8 bytes.
    static func decodePercent(_ text: String) throws(StoreError) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(), let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else {
                throw .invalid("postgres:// URL: a % not followed by two hexadecimal digits")
            }
            bytes.append(value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
