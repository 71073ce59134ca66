import FairFuelCore

/// Who may have driven a stretch of untracked driving: the last driver of an ended or
/// interrupted trip and the drivers whose fobs were aboard. Four inline slots, so that
/// adding to it while driving allocates nothing.
public struct DriverCandidates: Sendable, Equatable {
    public static let capacity = 4
    // Plain fields rather than a fixed-size array type: the value rides in every
    // untracked-driving output and must stay trivially copyable.
    private var first: Int64 = 0
    private var second: Int64 = 0
    private var third: Int64 = 0
    private var fourth: Int64 = 0
    /// Candidates held; a fifth and later are counted in `overflowCount`, not kept.
    public private(set) var count = 0
    public private(set) var overflowCount = 0

    public init() {}

    public init(_ drivers: [DriverID]) {
        for driver in drivers { insert(driver) }
    }

    public var isEmpty: Bool { count == 0 }

    private func slot(_ index: Int) -> Int64 {
        switch index {
        case 0: first
        case 1: second
        case 2: third
        default: fourth
        }
    }

    public func contains(_ driver: DriverID) -> Bool {
        for index in 0..<count where slot(index) == driver.rawValue { return true }
        return false
    }

    public mutating func insert(_ driver: DriverID) {
        guard !contains(driver) else { return }
        switch count {
        case 0: first = driver.rawValue
        case 1: second = driver.rawValue
        case 2: third = driver.rawValue
        case 3: fourth = driver.rawValue
        default:
            overflowCount += 1
            return
        }
        count += 1
    }

    /// The candidates in the order they were added (allocates: for the store and reports).
    public var drivers: [DriverID] { (0..<count).map { DriverID(slot($0)) } }
}
