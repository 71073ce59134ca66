import FairFuelReports
import FairFuelStore
import Hummingbird

/// Why a request was refused: its status and a message for the person (a page) or the client (JSON).
public enum WebError: Error, Sendable, Equatable, CustomStringConvertible {
    case badRequest(String)
    case unauthorized(String)
    case forbidden(String)
    case notFound(String)
    /// The change needs a confirmation (a price far from the usual one, a settled bill that would move).
    case needsConfirmation(String)
    case refused(String)
    case tooLarge(String)
    case tooManyRequests(String, retryAfterSeconds: Int)
    case unavailable(String)

    public var description: String {
        switch self {
        case let .badRequest(m), let .unauthorized(m), let .forbidden(m), let .notFound(m), let .needsConfirmation(m), let .refused(m),
             let .tooLarge(m), let .unavailable(m): m
        case let .tooManyRequests(m, _): m
        }
    }

    public var status: HTTPResponse.Status {
        switch self {
        case .badRequest: .badRequest
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .needsConfirmation: .conflict
        case .refused: .unprocessableContent
        case .tooLarge: .contentTooLarge
        case .tooManyRequests: .tooManyRequests
        case .unavailable: .serviceUnavailable
        }
    }

    /// A short code clients can switch on.
    public var code: String {
        switch self {
        case .badRequest: "bad_request"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .notFound: "not_found"
        case .needsConfirmation: "needs_confirmation"
        case .refused: "refused"
        case .tooLarge: "too_large"
        case .tooManyRequests: "too_many_requests"
        case .unavailable: "unavailable"
        }
    }

    /// The store's refusal as the web tells it, by its kind: a missing thing is 404, a refused change 422,
    /// or 409 when it only needs a confirmation (the store's `force`, worded in `units` when given);
    /// the disk and SQLite's failures are 503.
    init(_ error: StoreError, units: DisplayUnits? = nil) {
        switch error.kind {
        case .needsConfirmation:
            let confirmation = error.confirmation
            self = .needsConfirmation(
                units.flatMap { units in confirmation.map { StoreConfirmationText.message($0, units: units, goAhead: "confirm") } }
                    ?? confirmation?.text(goAhead: "confirm") ?? error.description)
        case .notFound: self = .notFound(error.description)
        case .invalid: self = .refused(error.description)
        case .unavailable: self = .unavailable("the store cannot do that now: \(error)")
        }
    }
}
