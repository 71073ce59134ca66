/// One car's pulled state, the texts of the files in its `.fairfuel-pull/` (nil: no such file):
/// read from a pull or hub directory, or made in memory from a hub database's rows
/// (`HubCollector.carStates`), so that `FamilyBooks` reads both one way.
public struct PulledCarState: Sendable {
    /// What names the car in messages: its directory, or the database and the car's id.
    public var source: String
    /// A hub's copy of the car (not a USB pull): the same car in both is told apart in the refusal.
    public var isHubCopy: Bool
    public var vehicle: String?
    public var drivers: String?
    public var trips: String?
    public var splits: String?

    /// The state kept in `directory`'s `.fairfuel-pull/`.
    static func read(directory: String) throws(PullClientError) -> PulledCarState {
        let state = directory + "/" + PullDownload.stateDirectoryName
        return PulledCarState(
            source: directory, isHubCopy: try PullFiles.read(state + "/" + HubCollector.recordsName) != nil,
            vehicle: try PullFiles.read(state + "/vehicle.tsv"), drivers: try PullFiles.read(state + "/drivers.tsv"),
            trips: try PullFiles.read(state + "/trips.tsv"), splits: try PullFiles.read(state + "/splits.tsv"))
    }
}
