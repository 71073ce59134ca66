import FairFuelCore
import FairFuelDomain
import FairFuelLink
import FairFuelServiceCore
import Testing
import TestSupport

/// A line that loses frames on the way from the MCU (a UART overrun, a proxy dropping them):
/// an epoch assembled without its RMC, or a missing epoch, is a break in the speed trace,
/// never a harsh event, and the distance stays what it was.
@Suite struct LossyLineTests {
    static let scenario = PackagePaths.root + "/Tests/FairFuelServiceCoreTests/Fixtures/motorway-trip.scenario"

    /// The one session of the motorway trip, with `drop` deciding which frames the line loses.
    static func trip(dropping drop: ((Frame) -> Bool)?) throws -> (metrics: TripMetrics, dropped: Int) {
        var rig = try CoreRig(scenario: scenario)
        rig.dropsFrame = drop
        rig.run(until: rig.plan.endMs + 300_000)
        rig.finish()
        let ended = rig.stored.compactMap { output -> SessionRecord? in
            if case let .sessionEnded(record) = output { return record }
            return nil
        }
        try #require(ended.count == 1, "\(rig.sessions)")
        return (ended[0].metrics, rig.droppedFrames)
    }

    static func isRMC(_ frame: Frame) -> Bool {
        guard case let .nmea(report) = frame.message else { return false }
        return report.sentence.count > 6 && Array(report.sentence.dropFirst(3).prefix(3)) == Array("RMC".utf8)
    }

    @Test func droppingRMCSentencesAddsNoHarshEventAndKeepsTheDistance() throws {
        let clean = try Self.trip(dropping: nil)
        var random = SeededGenerator(seed: 25)
        let lossy = try Self.trip(dropping: { frame in Self.isRMC(frame) && Double.random(in: 0..<1, using: &random) < 0.05 })
        #expect(lossy.dropped > 50, "\(lossy.dropped) RMC frames dropped")
        #expect(clean.metrics.distance.kilometers > 60, "\(clean.metrics.distance.kilometers) km")
        #expect(lossy.metrics.harshBrakings == clean.metrics.harshBrakings)
        #expect(lossy.metrics.harshAccelerations == clean.metrics.harshAccelerations)
        #expect(abs(lossy.metrics.distance.value / clean.metrics.distance.value - 1) < 0.01,
                "\(lossy.metrics.distance.kilometers) km of \(clean.metrics.distance.kilometers) km")
    }

    @Test func losingWholeFramesAtRandomAddsNoHarshEventAndKeepsTheDistance() throws {
        let clean = try Self.trip(dropping: nil)
        var random = SeededGenerator(seed: 26)
        let lossy = try Self.trip(dropping: { frame in
            if case .nmea = frame.message { return Double.random(in: 0..<1, using: &random) < 0.20 }
            return false
        })
        #expect(lossy.dropped > 1_000, "\(lossy.dropped) frames dropped")
        #expect(lossy.metrics.harshBrakings == clean.metrics.harshBrakings)
        #expect(lossy.metrics.harshAccelerations == clean.metrics.harshAccelerations)
        #expect(abs(lossy.metrics.distance.value / clean.metrics.distance.value - 1) < 0.01,
                "\(lossy.metrics.distance.kilometers) km of \(clean.metrics.distance.kilometers) km")
    }
}
