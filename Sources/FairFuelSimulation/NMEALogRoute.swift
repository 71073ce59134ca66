import FairFuelCore
import FairFuelParsers

/// Turns a recorded NMEA log into a drive: the positions, speeds and courses of its fixes,
/// resampled to one a second; the sim re-emits them with its own UTC and noise-free.
enum NMEALogRoute {
    enum Failure: Error, Equatable {
        case tooFewFixes(Int)
    }

    /// The drive of the log's valid fixes, starting at simulated time 0.
    static func track(fromLog bytes: [UInt8], terrain: Terrain) throws(Failure) -> DriveTrack {
        var decoder = NMEAFixDecoder()
        var fixes: [(ms: Int64, fix: GNSSFix)] = []
        var dayOffset: Int64 = 0
        var lastTimeOfDay: Int64?
        func collect(_ fix: GNSSFix) {
            guard fix.mode >= .fix2D, fix.latitude != nil, fix.longitude != nil else { return }
            let ms: Int64
            if let utc = fix.utc {
                ms = utc.millisecondsSinceEpoch
            } else if let time = fix.timeOfDay {
                var value = Int64(time.milliseconds)
                if let last = lastTimeOfDay, value + dayOffset < last - 43_200_000 { dayOffset += 86_400_000 }
                value += dayOffset
                lastTimeOfDay = value
                ms = value
            } else {
                return
            }
            if let previous = fixes.last, ms <= previous.ms { return }
            fixes.append((ms, fix))
        }
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "\n") {
            let line = bytes[start..<index]
            start = index + 1
            if line.first == UInt8(ascii: "#") || line.isEmpty { continue }
            decoder.feed(line: line) { collect($0) }
        }
        decoder.finish { collect($0) }
        guard fixes.count >= 2 else { throw .tooFewFixes(fixes.count) }

        let origin = fixes[0].ms
        let duration = fixes[fixes.count - 1].ms - origin
        var samples: [DriveTrack.Sample] = []
        samples.reserveCapacity(Int(duration / 1000) + 2)
        var index = 0
        var distance = 0.0
        var previous: GeoPoint?
        var lastCourse = fixes[0].fix.course ?? 0
        var time: Int64 = 0
        while true {
            let t = min(time, duration)
            while index < fixes.count - 2 && fixes[index + 1].ms - origin <= t { index += 1 }
            let a = fixes[index]
            let b = fixes[index + 1]
            let span = Double(b.ms - a.ms)
            let f = min(1, max(0, Double(t - (a.ms - origin)) / max(span, 1)))
            let position = GeoPoint(
                latitude: a.fix.latitude! + (b.fix.latitude! - a.fix.latitude!) * f,
                longitude: a.fix.longitude! + (b.fix.longitude! - a.fix.longitude!) * f)
            let step = LocalPlane.distance(GeoPoint(latitude: a.fix.latitude!, longitude: a.fix.longitude!), GeoPoint(latitude: b.fix.latitude!, longitude: b.fix.longitude!))
            var speed = 0.0
            if let sa = a.fix.speed?.value, let sb = b.fix.speed?.value {
                speed = sa + (sb - sa) * f
            } else if span > 0 {
                speed = step / (span / 1000)
            }
            if let course = a.fix.course, speed > 0.5 {
                lastCourse = course
            } else if step > 1, speed > 0.5 {
                let plane = LocalPlane(origin: GeoPoint(latitude: a.fix.latitude!, longitude: a.fix.longitude!))
                let (east, north) = plane.offset(of: GeoPoint(latitude: b.fix.latitude!, longitude: b.fix.longitude!))
                lastCourse = LocalPlane.bearing(east: east, north: north)
            }
            if let previous { distance += LocalPlane.distance(previous, position) }
            previous = position
            let altitude: Double
            if let aa = a.fix.altitude?.value, let ab = b.fix.altitude?.value {
                altitude = aa + (ab - aa) * f
            } else {
                altitude = terrain.altitude(at: position)
            }
            samples.append(DriveTrack.Sample(
                position: position, speedMetersPerSecond: t == duration ? 0 : speed, courseDegrees: lastCourse,
                altitudeMeters: altitude, distanceMeters: distance))
            if time >= duration { break }
            time += 1000
        }
        return DriveTrack(startMs: 0, samples: samples, stops: [])
    }
}
