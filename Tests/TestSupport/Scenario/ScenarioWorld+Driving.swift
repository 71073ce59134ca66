/// The driver model: follows a route leg by leg, one-second steps.
///
/// Free road: the intelligent-driver acceleration a·(1 − (v/v₀)⁴) toward the limit
/// times the driver's speed factor (with a slow drift of a few per cent), capped by
/// what the engine can give in the gears the driver uses. Approaching a stop or a
/// slower stretch, the driver brakes once the deceleration needed reaches 80 % of
/// what they are comfortable with. Stop-and-go alternates crawling at 2 to 7 m/s and
/// standing. Red lights hold the car 8 to 70 s.
extension ScenarioWorld {
    /// Drives `route` with the style of whoever is at the wheel (or `style`).
    public mutating func drive(_ route: Route, style: DrivingStyle? = nil) {
        guard let driver = wheel else { preconditionFailure("nobody at the wheel") }
        precondition(drivetrain.engineOn, "the engine is off")
        let style = style ?? family[driver].style
        for index in route.legs.indices {
            let next = index + 1 < route.legs.count ? route.legs[index + 1] : nil
            driveLeg(route.legs[index], next: next, style: style)
            headingDegrees = (headingDegrees + route.legs[index].turnDegrees).truncatingRemainder(dividingBy: 360)
        }
    }

    /// Drives at `metersPerSecond` for `seconds` (a parking manoeuvre, walking-pace traffic).
    public mutating func creep(metersPerSecond: Double, seconds: Int) {
        for _ in 0..<seconds {
            second(acceleration: max(-2, min(1, metersPerSecond - speed)))
        }
    }

    private mutating func driveLeg(_ leg: Route.Leg, next: Route.Leg?, style: DrivingStyle) {
        surroundings = .driving(leg.surroundings)
        urbanCanyon = leg.urbanCanyon
        if leg.tunnel { gnssOutage = true }
        var stopAtEnd = false
        var hard = false
        var endSpeed = 0.0
        var waitSeconds = 0
        switch leg.end {
        case .through:
            endSpeed = min(leg.limit, next?.limit ?? leg.limit) * style.speedFactor
        case let .light(redChance):
            if random.chance(redChance) {
                stopAtEnd = true
                waitSeconds = random.integer(8...70)
                hard = random.chance(style.lateBrakingChance)
            } else {
                endSpeed = min(leg.limit * style.speedFactor, 11)
            }
        case .stopSign:
            stopAtEnd = true
            waitSeconds = random.integer(1...4)
        case let .slow(to):
            endSpeed = to
        case .hardStop:
            stopAtEnd = true
            hard = true
            waitSeconds = 5
        case .destination:
            stopAtEnd = true
        }
        var drift = AR1(sigma: 0.03, tauSeconds: 40, random: &random)
        var wobble = AR1(sigma: style.accelerationJitter, tauSeconds: 2, random: &random)
        var jamMoving = false
        var jamUntilMs = nowMs
        var jamTarget = 0.0
        var travelled = 0.0
        var tapped = false
        var steps = 0
        while true {
            steps += 1
            precondition(steps < 50_000, "a leg that never ends")
            let remaining = leg.meters - travelled
            let v = speed
            if !stopAtEnd && remaining <= 0 { break }
            if stopAtEnd && remaining < 3 && v < 0.05 { break }
            if let person = leg.tapHalfwayBy, !tapped, travelled >= leg.meters / 2 {
                tap(person)
                tapped = true
            }
            var target = leg.limit * style.speedFactor * (1 + drift.step(1, random: &random))
            if leg.congested {
                if nowMs >= jamUntilMs {
                    jamMoving.toggle()
                    jamUntilMs = nowMs + Int64(jamMoving ? random.uniform(4_000...15_000) : random.uniform(3_000...25_000))
                    jamTarget = random.uniform(2...7)
                }
                target = jamMoving ? jamTarget : 0
            }
            let endTarget = stopAtEnd ? 0 : endSpeed
            let room = max(remaining - (stopAtEnd ? 1 : 0), 0.01)
            let needed = v > endTarget ? (v * v - endTarget * endTarget) / (2 * room) : 0
            let braking = hard ? 6.0 : style.deceleration
            var a: Double
            if stopAtEnd && remaining < 3 {
                a = -v
            } else if needed >= 0.8 * braking {
                a = -min(needed, 9)
            } else if target < 0.1 {
                a = -min(v, 2.5)
            } else {
                let ratio = v / target
                a = style.acceleration * (1 - ratio * ratio * ratio * ratio)
                a = max(a, -style.deceleration)
                a = min(a, powerLimitedAcceleration(speed: v, style: style))
                if v > 0.5 || a > 0 { a += wobble.step(1, random: &random) }
                // Never build up more speed than the room left lets the driver brake from.
                if stopAtEnd || endTarget < v + a {
                    let v1 = max(0, v + a)
                    let room1 = max(room - (v + v1) / 2, 0.01)
                    if v1 > endTarget, (v1 * v1 - endTarget * endTarget) / (2 * room1) > braking {
                        a = min(a, 0)
                    }
                }
            }
            travelled += second(acceleration: a)
        }
        if leg.tunnel {
            gnssOutage = false
            fixFromMs = max(fixFromMs == .max ? 0 : fixFromMs, nowMs + Int64(random.integer(1_500...4_000)))
        }
        if waitSeconds > 0 { wait(seconds: waitSeconds) }
    }

    /// The most the engine gives in a gear the driver would use (rpm not above their upshift point).
    private func powerLimitedAcceleration(speed: Double, style: DrivingStyle) -> Double {
        var best = -Double.infinity
        for gear in 1...car.gearRatios.count where car.rpm(speed: speed, gear: gear) <= style.upshiftRPM + 300 {
            best = max(best, car.maximumAcceleration(speed: speed, gear: gear))
        }
        if best == -Double.infinity { best = car.maximumAcceleration(speed: speed, gear: car.gearRatios.count) }
        return best
    }
}
