import Testing

/// What the rigs of the slow tiers call as they start: a test that starts a helper process, mounts
/// a tmpfs or replays a week or more without its tier's tag records an issue, so that it cannot
/// slip into the unit tier (`scripts/test.sh --fast`) unnoticed. Outside a test (a helper thread,
/// a trait's condition) there is nothing to check.
public enum TestTier {
    public static func require(_ tags: Tag..., for what: String) {
        guard let test = Test.current, test.tags.isDisjoint(with: tags) else { return }
        let names = tags.map { "\($0)" }.joined(separator: " or ")
        Issue.record("\(what) belongs in a slow tier: tag the suite \(names) (Tests/TestSupport/Tags.swift)")
    }
}
