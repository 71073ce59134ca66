import RealModule

/// Gentle hills around the scenario's start, so that altitude changes as the car moves.
struct Terrain: Sendable {
    let plane: LocalPlane
    let baseMeters: Double

    func altitude(at point: GeoPoint) -> Double {
        let (east, north) = plane.offset(of: point)
        return baseMeters + 24 * Double.sin(east / 4100) + 17 * Double.cos(north / 3300) + 6 * Double.sin((east + north) / 900)
    }
}

/// Generates a drive: a street-like polyline and a speed profile with corners, red lights and stops.
///
/// The polyline is a loop back to the start or a wandering path to a destination (on a
/// street grid for urban kinds); the speed along it respects the kind's cruise speed,
/// traffic, corner speeds and acceleration limits, and stands still at each stop.
struct RouteGenerator {
    struct Request {
        var kind: SimRouteKind
        var start: GeoPoint
        /// nil: a loop back to the start, `lengthMeters` long.
        var destination: GeoPoint?
        var lengthMeters: Double?
        /// Scripted stops: position along the route (nil: spread evenly) and how long.
        var stops: [(atMeters: Double?, durationMs: Int64)]
        var terrain: Terrain
        var seed: UInt64
    }

    static let nodeSpacing = 5.0
    /// Braking for a stop or a corner, m/s²: a normal driver's, clear of the harsh threshold
    /// even with 10 Hz speed noise.
    static let normalDeceleration = 1.7
    /// Late braking for a light, m/s² (harsh).
    static let hardDeceleration = 3.6
    /// A hard start from a light, m/s² (harsh; a car's 0-50 km/h in about 5 s).
    static let hardAcceleration = 2.9
    /// Chances per stop (and per start): about one harsh event per 10 urban km, both kinds.
    static let lateBrakingChance = 0.02
    static let hardStartChance = 0.03
    /// How far (nodes, 150 m) a hard start or a late braking lasts: enough to reach town speed.
    static let hardReachNodes = 30

    /// The drive, starting at simulated time 0.
    static func generate(_ request: Request) -> DriveTrack {
        var random = SplitMix(seed: request.seed)
        let plane = LocalPlane(origin: request.start)
        var points = waypoints(request, plane: plane, random: &random)
        var cumulative = [0.0]
        for index in 1..<points.count {
            cumulative.append(cumulative[index - 1] + Double.hypot(points[index].0 - points[index - 1].0, points[index].1 - points[index - 1].1))
        }
        if let wanted = request.lengthMeters, request.destination == nil, cumulative.last! > 1 {
            let scale = wanted / cumulative.last!
            points = points.map { ($0.0 * scale, $0.1 * scale) }
            cumulative = cumulative.map { $0 * scale }
        }
        let length = max(cumulative.last!, nodeSpacing * 2)
        let nodeCount = Int((length / nodeSpacing).rounded(.up)) + 1
        let spacing = length / Double(nodeCount - 1)

        // Speed limit and dwell per node.
        var limit = [Double](repeating: 0, count: nodeCount)
        var dwell = [Int64](repeating: 0, count: nodeCount)
        var scripted = [Int?](repeating: nil, count: nodeCount)
        var blockFactor = 1.0
        var blockEnd = -1.0
        for node in 0..<nodeCount {
            let s = Double(node) * spacing
            if s >= blockEnd {
                let motorwayLike = cruise(request.kind, s: s, length: length) > 26
                blockEnd = s + (motorwayLike ? 2000 : 400)
                blockFactor = motorwayLike
                    ? (random.chance(0.05) ? random.uniform(0.3, 0.6) : random.uniform(0.9, 1.06))
                    : random.uniform(0.78, 1.05)
            }
            limit[node] = cruise(request.kind, s: s, length: length) * blockFactor
        }
        // Corners: slow down within 10 m of each turn; urban corners may have a red light.
        var lastLightS = 0.0
        for vertex in 1..<max(points.count - 1, 1) {
            let turn = turnDegrees(points[vertex - 1], points[vertex], points[vertex + 1])
            let cornerSpeed: Double? =
                turn >= 60 ? 5.5 : turn >= 30 ? 9 : turn >= 12 ? (cruise(request.kind, s: cumulative[vertex], length: length) > 26 ? 22 : 15) : nil
            let node = min(nodeCount - 1, Int((cumulative[vertex] / spacing).rounded()))
            if isUrban(request.kind, s: cumulative[vertex], length: length), turn >= 45, random.chance(0.35),
                node > 4, node < nodeCount - 5
            {
                dwell[node] = Int64(random.uniform(8, 45) * 1000)
                lastLightS = cumulative[vertex]
            }
            // A car that stops at the corner's light needs no corner speed on the way in; with one,
            // a stop would be two brakings (to corner speed, then to rest).
            if let cornerSpeed, dwell[node] == 0 {
                for near in max(0, node - 2)...min(nodeCount - 1, node + 2) { limit[near] = min(limit[near], cornerSpeed) }
            }
        }
        // Lights on long straight urban stretches.
        var s = 700.0
        while s < length - 100 {
            if isUrban(request.kind, s: s, length: length), s - lastLightS > 500, random.chance(0.3) {
                let node = Int(s / spacing)
                if dwell[node] == 0 { dwell[node] = Int64(random.uniform(8, 40) * 1000) }
            }
            s += 700
        }
        // Scripted stops override whatever the route had there.
        let unplaced = request.stops.filter { $0.atMeters == nil }.count
        var unplacedIndex = 0
        for (index, stop) in request.stops.enumerated() {
            var at: Double
            if let given = stop.atMeters {
                at = given
            } else {
                unplacedIndex += 1
                at = length * Double(unplacedIndex) / Double(unplaced + 1)
            }
            at = min(max(at, 30), length - 30)
            var node = Int((at / spacing).rounded())
            while node < nodeCount - 2 && scripted[node] != nil { node += 1 }
            dwell[node] = stop.durationMs
            scripted[node] = index
        }
        for node in 0..<nodeCount where dwell[node] > 0 { limit[node] = 0 }
        limit[0] = 0
        limit[nodeCount - 1] = 0

        // Acceleration limits per node: a driver's usual ones stay under the domain's harsh
        // threshold (2.2 m/s², MotionThresholds), as a normal driver's do; now and then a
        // light is met with late braking or left with a hard start, so both harsh kinds occur.
        var acceleration = [Double](repeating: accelerationLimit(request.kind), count: nodeCount)
        var deceleration = [Double](repeating: normalDeceleration, count: nodeCount)
        for node in 0..<nodeCount where dwell[node] > 0 || node == 0 {
            if random.chance(hardStartChance) {
                for ahead in node..<min(nodeCount, node + hardReachNodes) { acceleration[ahead] = hardAcceleration }
            }
            if node > 0, random.chance(lateBrakingChance) {
                for before in max(0, node - hardReachNodes)..<node { deceleration[before] = hardDeceleration }
            }
        }
        var speed = limit
        for node in 1..<nodeCount {
            speed[node] = min(speed[node], (speed[node - 1] * speed[node - 1] + 2 * acceleration[node - 1] * spacing).squareRoot())
        }
        for node in stride(from: nodeCount - 2, through: 0, by: -1) {
            speed[node] = min(speed[node], (speed[node + 1] * speed[node + 1] + 2 * deceleration[node] * spacing).squareRoot())
        }

        // Arrival and departure time of each node, in milliseconds.
        var arrival = [Double](repeating: 0, count: nodeCount)
        var departure = [Double](repeating: 0, count: nodeCount)
        departure[0] = Double(dwell[0])
        for node in 1..<nodeCount {
            let average = (speed[node - 1] + speed[node]) / 2
            let seconds = average < 0.3 ? (2 * spacing / acceleration[node - 1]).squareRoot() : spacing / average
            arrival[node] = departure[node - 1] + seconds * 1000
            departure[node] = arrival[node] + Double(dwell[node])
        }

        // Sample every second.
        var samples: [DriveTrack.Sample] = []
        let total = arrival[nodeCount - 1]
        samples.reserveCapacity(Int(total / 1000) + 2)
        var node = 0
        var lastCourse = initialCourse(points)
        var time = 0.0
        while true {
            let t = min(time, total)
            while node < nodeCount - 1 && arrival[node + 1] <= t { node += 1 }
            var along: Double
            var velocity: Double
            if node >= nodeCount - 1 || t < departure[node] {
                along = Double(node) * spacing
                velocity = 0
            } else {
                let fraction = (t - departure[node]) / max(arrival[node + 1] - departure[node], 1)
                along = (Double(node) + fraction) * spacing
                velocity = speed[node] + (speed[node + 1] - speed[node]) * fraction
            }
            along = min(along, length)
            let (east, north) = position(points, cumulative, along)
            if velocity > 0.5 {
                let ahead = position(points, cumulative, min(length, along + 6))
                let behind = position(points, cumulative, max(0, along - 6))
                if Double.hypot(ahead.0 - behind.0, ahead.1 - behind.1) > 1 {
                    lastCourse = LocalPlane.bearing(east: ahead.0 - behind.0, north: ahead.1 - behind.1)
                }
            }
            let point = plane.point(east: east, north: north)
            samples.append(DriveTrack.Sample(
                position: point, speedMetersPerSecond: velocity, courseDegrees: lastCourse,
                altitudeMeters: request.terrain.altitude(at: point), distanceMeters: along))
            if time >= total { break }
            time += 1000
        }

        var stops: [DriveTrack.StopWindow] = []
        for node in 0..<nodeCount where dwell[node] > 0 {
            stops.append(DriveTrack.StopWindow(
                startMs: Int64(arrival[node].rounded()), endMs: Int64(departure[node].rounded()), scriptedIndex: scripted[node]))
        }
        return DriveTrack(startMs: 0, samples: samples, stops: stops)
    }

    // MARK: geometry

    static func waypoints(_ request: Request, plane: LocalPlane, random: inout SplitMix) -> [(Double, Double)] {
        let segment = segmentLength(request.kind)
        let gridAngle = random.uniform(0, Double.pi / 2)
        var points: [(Double, Double)]
        if let destination = request.destination, LocalPlane.distance(request.start, destination) > 50 {
            let (endEast, endNorth) = plane.offset(of: destination)
            let distance = Double.hypot(endEast, endNorth)
            let count = min(60, max(1, Int(distance / segment)))
            let perpendicular = (-endNorth / distance, endEast / distance)
            let bend = random.uniform(-0.12, 0.12)
            points = [(0, 0)]
            for step in 1..<count {
                let f = Double(step) / Double(count)
                let offset = distance * (bend * Double.sin(Double.pi * f) + random.uniform(-0.04, 0.04) * Double.sin(Double.pi * f))
                points.append((endEast * f + perpendicular.0 * offset, endNorth * f + perpendicular.1 * offset))
            }
            points.append((endEast, endNorth))
        } else {
            let length = request.lengthMeters ?? 2000
            let radius = length / (2 * Double.pi)
            let heading = random.uniform(0, 2 * Double.pi)
            let center = (radius * Double.cos(heading), radius * Double.sin(heading))
            let count = min(48, max(5, Int(length / segment)))
            points = []
            for step in 0...count {
                let angle = heading + Double.pi + 2 * Double.pi * Double(step) / Double(count)
                let r = (step == 0 || step == count) ? radius : radius * random.uniform(0.8, 1.2)
                points.append((center.0 + r * Double.cos(angle), center.1 + r * Double.sin(angle)))
            }
            points[0] = (0, 0)
            points[count] = (0, 0)
        }
        if request.kind == .urban || request.kind == .suburban {
            points = onGrid(points, angle: gridAngle, random: &random)
        }
        return points
    }

    /// Inserts a corner between consecutive points so that streets follow a rotated grid.
    static func onGrid(_ points: [(Double, Double)], angle: Double, random: inout SplitMix) -> [(Double, Double)] {
        let (c, s) = (Double.cos(angle), Double.sin(angle))
        var out = [points[0]]
        for index in 1..<points.count {
            let a = points[index - 1]
            let b = points[index]
            // Coordinates along the grid's axes.
            let au = a.0 * c + a.1 * s, av = -a.0 * s + a.1 * c
            let bu = b.0 * c + b.1 * s, bv = -b.0 * s + b.1 * c
            let corner = random.chance(0.5) ? (bu, av) : (au, bv)
            let cornerPoint = (corner.0 * c - corner.1 * s, corner.0 * s + corner.1 * c)
            if Double.hypot(cornerPoint.0 - a.0, cornerPoint.1 - a.1) > 5 && Double.hypot(cornerPoint.0 - b.0, cornerPoint.1 - b.1) > 5 {
                out.append(cornerPoint)
            }
            out.append(b)
        }
        return out
    }

    static func position(_ points: [(Double, Double)], _ cumulative: [Double], _ s: Double) -> (Double, Double) {
        var low = 0
        var high = cumulative.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if cumulative[middle] <= s { low = middle } else { high = middle }
        }
        let span = cumulative[high] - cumulative[low]
        let f = span > 0 ? min(1, max(0, (s - cumulative[low]) / span)) : 0
        return (points[low].0 + (points[high].0 - points[low].0) * f, points[low].1 + (points[high].1 - points[low].1) * f)
    }

    static func turnDegrees(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double)) -> Double {
        let first = Double.atan2(y: b.1 - a.1, x: b.0 - a.0)
        let second = Double.atan2(y: c.1 - b.1, x: c.0 - b.0)
        var turn = abs(second - first) * 180 / Double.pi
        if turn > 180 { turn = 360 - turn }
        return turn
    }

    static func initialCourse(_ points: [(Double, Double)]) -> Double {
        guard points.count > 1 else { return 0 }
        return LocalPlane.bearing(east: points[1].0 - points[0].0, north: points[1].1 - points[0].1)
    }

    // MARK: road kinds

    static func segmentLength(_ kind: SimRouteKind) -> Double {
        switch kind {
        case .urban: 260
        case .suburban: 600
        case .rural: 1500
        case .motorway: 4000
        case .mixed: 1500
        }
    }

    /// Free-flow speed at `s` metres along a route of `length`, m/s.
    static func cruise(_ kind: SimRouteKind, s: Double, length: Double) -> Double {
        switch kind {
        case .urban: return 13.9
        case .suburban: return 16.7
        case .rural: return 24.5
        case .motorway:
            let ramp = min(1500, length * 0.15)
            return (s < ramp || s > length - ramp) ? 19.4 : 33.3
        case .mixed:
            let town = min(3000, length * 0.15)
            return (s < town || s > length - town) ? 13.9 : 30.5
        }
    }

    static func isUrban(_ kind: SimRouteKind, s: Double, length: Double) -> Bool {
        switch kind {
        case .urban, .suburban: true
        case .mixed: s < min(3000, length * 0.15) || s > length - min(3000, length * 0.15)
        case .rural, .motorway: false
        }
    }

    static func accelerationLimit(_ kind: SimRouteKind) -> Double {
        switch kind {
        case .urban: 1.7
        case .suburban: 1.5
        case .rural: 1.3
        case .motorway, .mixed: 1.2
        }
    }
}
