import FairFuelCore
import FairFuelReports
import FairFuelStore

/// How `fairfuel web` runs: which store, where it listens, and what the shell around it provides
/// (the wall clock, the vehicle's time zone, the running service's reload): the web target reads no
/// file but the store and calls no libc.
public struct WebConfiguration: Sendable {
    public var storePath: String
    public var host: String
    public var port: Int
    /// Cookies carry `Secure` (the server is behind TLS, its own or a proxy's).
    public var secureCookies: Bool
    /// HTTPS in the app itself; nil: plain HTTP.
    public var tls: WebTLS?
    /// Whether cookies carry `Secure`: behind a TLS proxy when asked, and always under the app's own TLS.
    public var cookiesAreSecure: Bool { secureCookies || tls != nil }
    /// The largest request body taken (a receipt photo and its form); larger ones are refused with 413.
    public var uploadLimitBytes: Int
    /// The most all stored receipt photos together may take; a new one past it is refused.
    public var receiptsLimitBytes: Int64
    /// Failed logins for one user name (and from one address not on loopback) before each further try
    /// waits, 1 s and doubling up to the longest wait: behind systemd's proxy every client is 127.0.0.1.
    public var loginFailuresAllowed: Int
    public var loginLongestWaitSeconds: Int
    /// Seconds a connection may stay idle (no request, or a request's bytes stalled) before it is closed.
    public var connectionIdleTimeoutSeconds: Int
    /// How the family reads the vehicle's figures (the shell loads its time zone).
    public var units: @Sendable (VehicleProfile) -> DisplayUnits
    /// The wall clock, UTC milliseconds: when a refuel entered now happened, and when a bill was settled.
    public var nowUTCMs: @Sendable () -> Int64
    /// Called after a change of the book, so that a running service takes a new calibration.
    public var afterBookChange: @Sendable () -> Void
    /// Writes of the store queue their uplink message (the board's `[uplink]`); nil: none.
    public var uplink: OutboxUplink?
    /// One request to the running service's control socket, answered within the seconds given
    /// (`learn-tag`, `status`): blocking, so the app calls it off its request threads.
    public var askService: @Sendable (_ request: String, _ seconds: Int32) -> ServiceAnswer

    public init(
        storePath: String, host: String = "127.0.0.1", port: Int = 8080, secureCookies: Bool = false,
        uploadLimitBytes: Int = 8 << 20, receiptsLimitBytes: Int64 = 256 << 20, loginFailuresAllowed: Int = 10, loginLongestWaitSeconds: Int = 300,
        connectionIdleTimeoutSeconds: Int = 30,
        units: @escaping @Sendable (VehicleProfile) -> DisplayUnits, nowUTCMs: @escaping @Sendable () -> Int64,
        afterBookChange: @escaping @Sendable () -> Void = {}, uplink: OutboxUplink? = nil,
        askService: @escaping @Sendable (String, Int32) -> ServiceAnswer = { _, _ in .notRunning("no fairfuel service is known to this app") },
        tls: WebTLS? = nil
    ) {
        self.tls = tls
        self.storePath = storePath
        self.host = host
        self.port = port
        self.secureCookies = secureCookies
        self.uploadLimitBytes = uploadLimitBytes
        self.receiptsLimitBytes = receiptsLimitBytes
        self.loginFailuresAllowed = loginFailuresAllowed
        self.loginLongestWaitSeconds = loginLongestWaitSeconds
        self.connectionIdleTimeoutSeconds = connectionIdleTimeoutSeconds
        self.units = units
        self.nowUTCMs = nowUTCMs
        self.afterBookChange = afterBookChange
        self.uplink = uplink
        self.askService = askService
    }

    /// `HOST:PORT` (`[::1]:8080` for IPv6), with a clear error.
    public static func listenAddress(_ text: String) throws(WebError) -> (host: String, port: Int) {
        var host = ""
        var portText = ""
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .badRequest("--listen: '\(text)' is not HOST:PORT") }
            portText = String(rest.dropFirst())
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
        }
        guard !host.isEmpty, let port = Int(portText), (0...65_535).contains(port) else {
            throw .badRequest("--listen: '\(text)' is not HOST:PORT (e.g. 127.0.0.1:8080 or [::1]:8080)")
        }
        return (host, port)
    }
}

/// What the running service said to a control request, or why nobody answered.
public enum ServiceAnswer: Sendable, Equatable {
    /// Its answer line(s): `ok: ...`, `error: ...`, or the status JSON.
    case answered(String)
    /// Not running, not a socket, or no answer in time: the reason, for the page.
    case notRunning(String)
}
