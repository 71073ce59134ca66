import FairFuelStore
import Hummingbird
import HummingbirdAuth
import NIOCore

/// Who is logged in, kept server-side (the cookie holds only a random id): their user, role and the
/// token every form and API change must carry (CSRF).
public struct WebSession: Codable, Sendable, Equatable {
    public var userID: Int64
    public var name: String
    public var role: String
    public var csrfToken: String

    var isFamily: Bool { role == WebUser.Role.family.rawValue }
}

/// The request context: the session and the peer's address (logins are limited per address).
public struct WebContext: SessionRequestContext, RemoteAddressRequestContext {
    public typealias Session = WebSession
    public var coreContext: CoreRequestContextStorage
    public let sessions: SessionContext<WebSession>
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        sessions = .init()
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address as text (no port): what the login limit counts by.
    var peer: String { remoteAddress?.ipAddress ?? "unknown" }
}
