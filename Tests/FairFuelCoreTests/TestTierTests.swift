import Testing
import TestSupport

/// `TestTier.require`, which the slow rigs (helper processes, tmpfs mounts, week-long families)
/// call as they start: a test without the tier's tag records an issue, one with it (its own or
/// its suite's) does not. Checked with a tag of its own, so that these tests stay in the unit tier.
@Suite struct TestTierTests {
    @Test func aTestWithoutTheTagRecordsAnIssue() {
        withKnownIssue("the rig's tier is missing from this test's tags") {
            TestTier.require(.tierProbe, for: "a rig")
        }
    }

    @Test(.tags(.tierProbe)) func aTestWithTheTagRecordsNone() {
        TestTier.require(.tierProbe, for: "a rig")
    }

    @Test(.tags(.tierProbe)) func anyOfTheTagsWillDo() {
        TestTier.require(.integration, .tierProbe, for: "a rig")
    }

    @Suite(.tags(.tierProbe)) struct TaggedSuite {
        @Test func aTestInheritsItsSuitesTag() {
            TestTier.require(.tierProbe, for: "a rig")
        }
    }
}

extension Tag {
    @Tag static var tierProbe: Self
}
