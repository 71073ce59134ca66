import FairFuelCore
import FairFuelDomain
import FairFuelParsers
import FairFuelServiceCore
import Foundation
import Testing
import TestSupport

/// A receiver whose clock jumps is said once in the log and counted in `status`.
@Suite struct ServiceCoreReceiverTimeTests {
    @Test("two runs of bad epochs: one warning, every bad epoch counted in status as gnss_bad_epochs")
    func badEpochsAreLoggedOnceAndCounted() throws {
        let log = LogCapture()
        let core = try ServiceCore(
            settings: ServiceCoreSettings(port: "gpsd"), directory: try ServiceCoreHostileInputTests.directory(), vehicle: .familyCar,
            records: MemoryProvisioningRecords(directory: try ServiceCoreHostileInputTests.directory(), vehicle: .familyCar),
            logger: log.logger)
        let morningUTCMs: Int64 = 1_772_434_800_000
        let perform: ServiceActions = { _ in }
        for second in 0..<30 {
            // Two hours back at 10-12 s, an hour ahead at 20-21 s.
            let stepMs: Int64 = (10...12).contains(second) ? -7_200_000 : (20...21).contains(second) ? 3_600_000 : 0
            let utc = UTCTimestamp(millisecondsSinceEpoch: morningUTCMs + Int64(second) * 1_000 + stepMs)
            let fix = GNSSFix(utc: utc, timeOfDay: utc.timeOfDay, latitude: 48, longitude: 11, speed: .zero, mode: .fix3D)
            core.gnssFix(fix, at: LinkMilliseconds(Int64(second) * 1_000), perform)
        }
        let warnings = log.all.filter { $0.contains("GNSS receiver time jumped") }
        #expect(warnings.count == 1, "\(log.all)")
        #expect(warnings.first?.contains("back by 7200 s") == true, "\(log.all)")
        let status = core.status(at: LinkMilliseconds(30_000))
        #expect(status.gnss.badEpochs == 5)
        #expect(status.gnss.utcKnown)
    }
}
