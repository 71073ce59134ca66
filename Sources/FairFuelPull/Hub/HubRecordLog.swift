/// A hub's small append-only file of record lines (refusals, commands sent and their answers),
/// trimmed to the newest `limit` lines once it holds twice as many: a rewrite per `limit`
/// lines, never unbounded growth, whoever sends what.
final class HubRecordLog {
    let path: String
    let limit: Int
    /// Whether each line is synced as it is written (false: a power cut may lose the last ones).
    let durable: Bool
    private var lines: Int

    init(path: String, limit: Int, durable: Bool = true) throws(PullClientError) {
        self.path = path
        self.limit = max(1, limit)
        self.durable = durable
        lines = PulledRecords.lines(try PullFiles.read(path)).count
    }

    func append(_ fields: [String]) throws(PullClientError) {
        if durable { try PullFiles.appendDurably(path, PullRecordLine.encode(fields)) } else { try PullFiles.append(path, PullRecordLine.encode(fields)) }
        lines += 1
        if lines >= 2 * limit {
            let kept = PulledRecords.lines(try PullFiles.read(path)).suffix(limit)
            try PullFiles.replace(path, with: kept.map(PullRecordLine.encode).joined())
            lines = kept.count
        }
    }

    /// The newest `limit` lines of the file at `path`, oldest first.
    static func read(_ path: String, limit: Int) throws(PullClientError) -> [[String]] {
        Array(PulledRecords.lines(try PullFiles.read(path)).suffix(limit))
    }
}
