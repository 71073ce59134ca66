import FairFuelCore
import FairFuelParsers
import FairFuelSimulation

/// NMEA sentences of a receiver epoch: RMC and GGA, valid or without a fix.
public enum ScenarioNMEA {
    public static func sentences(_ epoch: ReceiverEpoch) -> (rmc: String, gga: String) {
        let stamp = UTCTimestamp(millisecondsSinceEpoch: epoch.utcMs)
        let date = stamp.date
        let timeOfDay = Int64(stamp.timeOfDay.milliseconds)
        guard epoch.valid else {
            return (
                NMEASentenceWriter.rmcWithoutFix(utcMillisecondsOfDay: timeOfDay, year: date.year, month: date.month, day: date.day),
                NMEASentenceWriter.sentence("GPGGA,\(hhmmss(timeOfDay)),,,,,0,00,99.9,,M,,M,,"))
        }
        let rmc = NMEASentenceWriter.rmc(
            utcMillisecondsOfDay: timeOfDay, year: date.year, month: date.month, day: date.day, latitude: epoch.latitude,
            longitude: epoch.longitude, speedMetersPerSecond: epoch.speedMetersPerSecond, courseDegrees: epoch.courseDegrees)
        let gga = NMEASentenceWriter.gga(
            utcMillisecondsOfDay: timeOfDay, latitude: epoch.latitude, longitude: epoch.longitude,
            satellites: epoch.satellites, hdop: epoch.hdop, altitudeMeters: epoch.altitudeMeters)
        return (rmc, gga)
    }

    /// `hhmmss.ss`.
    static func hhmmss(_ millisecondsOfDay: Int64) -> String {
        let centiseconds = Int(millisecondsOfDay / 10)
        return two(centiseconds / 360_000) + two(centiseconds / 6_000 % 60) + two(centiseconds / 100 % 60) + "."
            + two(centiseconds % 100)
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
