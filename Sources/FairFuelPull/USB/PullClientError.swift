
/// Why a pull stopped; every case says what the user can do.
public enum PullClientError: Error, Sendable, Equatable, CustomStringConvertible {
    case noAnswer(port: String)
    case unsupportedVersion
    case wrongSecret
    case locked(retryAfterMs: UInt32)
    /// The dongle answered the pairing without knowing the secret: not the dongle paired with.
    case dongleNotAuthentic
    case linkLost(String)
    case dongleError(PullErrorCode)
    case badRecord(kind: String, line: String)
    /// The dongle sent more than any car holds, or pages that do not move on (`why` says which):
    /// a broken or hostile device. The pull stops before writing what it sent.
    case beyondLimits(kind: String, why: String)
    case file(String)
    /// `directory` holds another car's pull (or a hub's copy of a car): pulling would replace its history.
    case folderHoldsAnotherCar(directory: String, folderCar: String, dongleCar: String)
    /// `directory` is not a USB pull's folder (a hub's directory, or trips without a vehicle record).
    case notAPullFolder(directory: String, why: String)

    public var description: String {
        switch self {
        case let .noAnswer(port): "no FairFuel dongle answered on \(port) (is the cable in and the pull service running?)"
        case .unsupportedVersion: "the dongle speaks another version of the USB pull protocol; update fairfuel"
        case .wrongSecret: "the dongle refused the pairing secret (wrong secret); no data was sent"
        case let .locked(ms): "the dongle refuses pairing for \((ms + 999) / 1000) s after failed tries; wait and retry with the right secret"
        case .dongleNotAuthentic: "the device did not prove it knows the pairing secret: it is not the dongle paired with this secret"
        case let .linkLost(why): "the link was lost (\(why)); run the same pull again to resume"
        case let .dongleError(code): "the dongle answered: \(code)"
        case let .badRecord(kind, line): "the dongle sent a \(kind) record this version cannot read: \(line)"
        case let .beyondLimits(kind, why):
            "the dongle's \(kind) listing \(why); no FairFuel dongle sends that, so the pull stopped and wrote none of it"
        case let .file(why): why
        case let .folderHoldsAnotherCar(directory, folderCar, dongleCar):
            "\(directory) holds the pull of another car (\(folderCar)); this dongle is \(dongleCar). Nothing was changed: "
                + "pull this car into another folder (--out)"
        case let .notAPullFolder(directory, why):
            "\(directory) \(why). Nothing was changed: pull into another folder (--out)"
        }
    }
}
