import Testing

/// The test tiers. `scripts/test.sh --fast` runs every test without one of these tags (the unit
/// tier); `--replay` and `--integration` run the tests tagged so; `scripts/study-*.sh` run the
/// studies. A suite's tag is the only list of what is slow: the script reads the tags from the
/// built tests, so tagging a suite is all it takes to move it out of the unit tier.
extension Tag {
    /// Replays of weeks and months of traffic (the family week, month replays, soak replays).
    @Tag public static var replay: Self
    /// Tests that drive real processes or the machine: the daemon, `fairfuel sim` and other
    /// long-lived children, gpsd, Mosquitto, Chromium, socat pseudo-terminal pairs, tmpfs mounts.
    @Tag public static var integration: Self
    /// Studies: off unless their environment variable is set; run by `scripts/study-*.sh`.
    @Tag public static var study: Self
}
