import FairFuelCore
import FairFuelParsers
import RealModule

/// The GNSS receiver behind the MCU: one epoch of sentences from the car's true state,
/// with a slowly wandering position error, speed and course noise, and a changing
/// satellite constellation. Before its first fix it sends status-V / quality-0 sentences.
struct GNSSReceiverModel: Sendable {
    static let satellitePool = [2, 5, 7, 9, 13, 15, 16, 18, 20, 24, 26, 29, 30, 31]

    let settings: GNSSSettings
    var random: SplitMix
    var errorEast = 0.0
    var errorNorth = 0.0
    var errorUp = 0.0
    /// Speed error of a moving receiver: its navigation filter makes it vary over about a
    /// second, not epoch to epoch, so that 10 Hz speeds do not jitter by whole m/s².
    var speedError = 0.0
    var satellites = 9
    var lastEpochMs: Int64?
    var lastCourse = 0.0

    init(settings: GNSSSettings, seed: UInt64) {
        self.settings = settings
        random = SplitMix(seed: seed)
    }

    var epochMs: Int64 { Int64(1000 / settings.rateHz) }

    /// Bits per second of the receiver's UART (what spaces the sentences of an epoch).
    var baud: Int { settings.rateHz >= 5 ? 115_200 : 9600 }

    /// The sentences of the epoch at `utcMs`, each with its delay after the epoch (ms).
    mutating func epoch(
        utcMs: Int64, simMs: Int64, state: DriveTrack.Sample, hasFix: Bool
    ) -> [(delayMs: Int64, sentence: String)] {
        let dt = Double(simMs - (lastEpochMs ?? simMs - 1000)) / 1000
        lastEpochMs = simMs
        let rho = Double.exp(-max(dt, 0.05) / 60)
        let scale = settings.horizontalErrorMeters * (1 - rho * rho).squareRoot()
        errorEast = rho * errorEast + scale * random.gaussian()
        errorNorth = rho * errorNorth + scale * random.gaussian()
        errorUp = rho * errorUp + 1.6 * scale * random.gaussian()
        let speedRho = Double.exp(-max(dt, 0.05) / 1.0)
        speedError = speedRho * speedError + 0.06 * (1 - speedRho * speedRho).squareRoot() * random.gaussian()
        if random.chance(dt / 40) { satellites = min(14, max(6, satellites + (random.chance(0.5) ? 1 : -1))) }

        let t = settings.talker
        let instant = UTCTimestamp(millisecondsSinceEpoch: utcMs)
        let millisecondOfDay = Int64(instant.timeOfDay.milliseconds)
        let date = instant.date
        let time = NMEASentenceWriter.time(millisecondOfDay)
        var sentences: [String] = []
        if !hasFix {
            for kind in settings.sentences {
                switch kind {
                case .rmc:
                    sentences.append(NMEASentenceWriter.rmcWithoutFix(
                        utcMillisecondsOfDay: millisecondOfDay, year: date.year, month: date.month, day: date.day, talker: t))
                case .gga: sentences.append(NMEASentenceWriter.sentence("\(t)GGA,\(time),,,,,0,00,99.99,,,,,,"))
                case .gsa: sentences.append(NMEASentenceWriter.sentence("\(t)GSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"))
                case .vtg: sentences.append(NMEASentenceWriter.sentence("\(t)VTG,,T,,M,,N,,K,N"))
                }
            }
        } else {
            let plane = LocalPlane(origin: state.position)
            let position = plane.point(east: errorEast, north: errorNorth)
            let moving = state.speedMetersPerSecond > 0.5
            let speed = moving
                ? max(0, state.speedMetersPerSecond + speedError)
                : abs(0.04 * random.gaussian())
            if moving { lastCourse = state.courseDegrees }
            var course = lastCourse + (moving ? 0.6 : 3) * random.gaussian()
            course = course.truncatingRemainder(dividingBy: 360)
            if course < 0 { course += 360 }
            let hdop = 0.55 + 5.0 / Double(satellites) + 0.05 * abs(random.gaussian())
            for kind in settings.sentences {
                switch kind {
                case .rmc:
                    sentences.append(NMEASentenceWriter.rmc(
                        utcMillisecondsOfDay: millisecondOfDay, year: date.year, month: date.month, day: date.day,
                        latitude: position.latitude, longitude: position.longitude, speedMetersPerSecond: speed,
                        courseDegrees: course, talker: t))
                case .gga:
                    sentences.append(NMEASentenceWriter.gga(
                        utcMillisecondsOfDay: millisecondOfDay, latitude: position.latitude, longitude: position.longitude,
                        satellites: satellites, hdop: hdop, altitudeMeters: state.altitudeMeters + errorUp, talker: t))
                case .gsa:
                    sentences.append(NMEASentenceWriter.gsa(
                        satellites: Array(GNSSReceiverModel.satellitePool.prefix(satellites)), pdop: hdop * 1.6,
                        hdop: hdop, vdop: hdop * 1.25, talker: t))
                case .vtg:
                    let knots = speed * 3600 / 1852
                    sentences.append(NMEASentenceWriter.sentence(
                        "\(t)VTG,\(NMEASentenceWriter.fixed(course, decimals: 1)),T,,M,\(NMEASentenceWriter.fixed(knots, decimals: 2)),N,"
                            + "\(NMEASentenceWriter.fixed(speed * 3.6, decimals: 2)),K,A"))
                }
            }
        }
        // The receiver starts its output ~40 ms after the epoch; each sentence ends when its last byte is through.
        var delay = 40.0
        return sentences.map { sentence in
            delay += Double(sentence.utf8.count + 2) * 10_000 / Double(baud)
            return (Int64(delay), sentence)
        }
    }
}
