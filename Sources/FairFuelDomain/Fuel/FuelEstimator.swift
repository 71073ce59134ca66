import FairFuelCore

import RealModule

/// Accumulates a vehicle's fuel from a stream of GNSS speed samples.
///
/// Samples are averaged over short blocks (`FuelEstimatorSettings.blockMs`); each pair of
/// consecutive block means is one interval with a mean speed and a mean acceleration,
/// and `FuelModel` gives its fuel. A gap is bridged by a straight speed ramp over its
/// whole length, so an outage never produces a jump in acceleration; a gap longer than
/// `maxBridgedGapMs`, or `pause()`, ends the stream and the next sample starts a new one.
/// The running total lags the newest sample by at most one block; `accountedThrough`
/// says up to when it counts. No allocation per sample.
public struct FuelEstimator: Sendable {
    public let model: FuelModel
    public let settings: FuelEstimatorSettings
    /// The refuel calibration's factor (`FuelCalibration.factor`), 1 before any refuel;
    /// a new value applies to fuel counted from then on, so the total never jumps.
    public var calibrationFactor: Double
    /// Fuel so far as the model gives it, before calibration: what calibration compares with refuels.
    public private(set) var modelLiters = Liters.zero
    /// Fuel so far, each interval at the calibration factor in force when it was counted.
    public private(set) var liters = Liters.zero
    /// Distance over the accounted intervals.
    public private(set) var distance = Meters.zero
    /// The time up to which the totals count (the middle of the last closed block); nil before any.
    public private(set) var accountedThrough: LinkMilliseconds?
    /// Samples skipped: not after the previous one in time, not finite, or faster than `maxSpeed`.
    public private(set) var skippedSampleCount: UInt64 = 0
    /// Times the stream ended on a gap longer than `maxBridgedGapMs`.
    public private(set) var brokenGapCount: UInt64 = 0

    private var lastSampleMs: Int64?
    private var paused = false
    // The block being filled.
    private var blockStartMs: Int64 = 0
    private var blockCount = 0
    private var blockOffsetSumMs: Int64 = 0
    private var blockSpeedSum = 0.0
    private var blockGradeSum = 0.0
    // The last closed block of this stream.
    private var hasPrevious = false
    private var previousCenterMs = 0.0
    private var previousSpeed = 0.0
    private var previousGrade = 0.0
    private var warmUpRemainingMilliliters: Double

    /// Starts with nothing counted; `coldStartFraction` is how cold the engine is at the
    /// first sample, from 1 (parked for hours) to 0 (warm).
    public init(
        model: FuelModel, calibrationFactor: Double = 1, coldStartFraction: Double = 1,
        settings: FuelEstimatorSettings = FuelEstimatorSettings()
    ) {
        self.model = model
        self.settings = settings
        self.calibrationFactor = calibrationFactor
        warmUpRemainingMilliliters = Self.clampUnit(coldStartFraction) * model.coldStartExtraMilliliters
    }

    /// Adds one sample and returns the calibrated fuel so far.
    ///
    /// `timeMs` is link time from the event; `grade` is rise over run, nil when unknown (level).
    @discardableResult
    public mutating func add(timeMs: Int64, speed: MetersPerSecond, grade: Double? = nil) -> Liters {
        let rawSpeed = speed.value
        guard rawSpeed.isFinite, rawSpeed <= settings.maxSpeed.value else {
            skippedSampleCount &+= 1
            return liters
        }
        if let last = lastSampleMs {
            guard timeMs > last else {
                skippedSampleCount &+= 1
                return liters
            }
            let gap = timeMs - last
            if paused || gap > settings.maxBridgedGapMs {
                if !paused {
                    brokenGapCount &+= 1
                    closeBlock()
                }
                hasPrevious = false
                blockCount = 0
                paused = false
                restartAfterStop(ofMs: gap)
            } else if timeMs - blockStartMs >= settings.blockMs {
                closeBlock()
            }
        }
        let limit = settings.maxGrade
        let g = grade.map { $0.isFinite ? min(limit, max(-limit, $0)) : 0 } ?? 0
        if blockCount == 0 { blockStartMs = timeMs }
        blockCount += 1
        blockOffsetSumMs += timeMs - blockStartMs
        blockSpeedSum += max(0, rawSpeed)
        blockGradeSum += g
        lastSampleMs = timeMs
        return liters
    }

    /// The engine stopped (or the stream ends): the current block is counted and the next
    /// sample starts a new stream, with a cold start as cold as the stop was long.
    public mutating func pause() {
        guard lastSampleMs != nil, !paused else { return }
        closeBlock()
        hasPrevious = false
        paused = true
    }

    /// Forgets everything counted; the next sample starts a stream `coldStartFraction` cold.
    public mutating func reset(coldStartFraction: Double = 1) {
        self = FuelEstimator(
            model: model, calibrationFactor: calibrationFactor, coldStartFraction: coldStartFraction, settings: settings)
    }

    /// The engine's warmth learnt late (a service that restarted knows only from the store
    /// how long the trip had run and how long the car has stood since): the warm-up fuel still
    /// to come is set from it, as `restartAfterStop` would have, had this stream seen it all.
    public mutating func warmUp(afterDrivingMs drivenMs: Int64, stoppedForMs stoppedMs: Int64) {
        let warmth = min(1, Double(max(0, drivenMs)) / Double(max(1, settings.warmUpMs)))
        let cooling = Double.exp(-Double(max(0, stoppedMs)) / Double(max(1, settings.coolingTimeConstantMs)))
        warmUpRemainingMilliliters = Self.clampUnit(1 - warmth * cooling) * model.coldStartExtraMilliliters
    }

    private mutating func restartAfterStop(ofMs stopMs: Int64) {
        let tau = Double(max(1, settings.coolingTimeConstantMs))
        let coldness = 1 - Double.exp(-Double(stopMs) / tau)
        warmUpRemainingMilliliters = max(warmUpRemainingMilliliters, coldness * model.coldStartExtraMilliliters)
    }

    private mutating func closeBlock() {
        guard blockCount > 0 else { return }
        let n = Double(blockCount)
        let centerMs = Double(blockStartMs) + Double(blockOffsetSumMs) / n
        let speed = blockSpeedSum / n
        let grade = blockGradeSum / n
        blockCount = 0
        blockOffsetSumMs = 0
        blockSpeedSum = 0
        blockGradeSum = 0
        if hasPrevious {
            let seconds = (centerMs - previousCenterMs) / 1_000
            if seconds > 0 {
                let acceleration = min(
                    settings.maxAccelerationMetersPerSecondSquared,
                    max(-settings.maxDecelerationMetersPerSecondSquared, (speed - previousSpeed) / seconds))
                let meanSpeed = (speed + previousSpeed) / 2
                var milliliters = seconds * model.millilitersPerSecond(
                    speed: MetersPerSecond(meanSpeed), accelerationMetersPerSecondSquared: acceleration,
                    grade: (grade + previousGrade) / 2)
                if warmUpRemainingMilliliters > 0 {
                    let warmUpRate = model.coldStartExtraMilliliters / (Double(max(1, settings.warmUpMs)) / 1_000)
                    let extra = min(warmUpRemainingMilliliters, warmUpRate * seconds)
                    warmUpRemainingMilliliters -= extra
                    milliliters += extra
                }
                modelLiters.value += milliliters / 1_000
                liters.value += milliliters / 1_000 * calibrationFactor
                distance.value += meanSpeed * seconds
            }
        }
        hasPrevious = true
        previousCenterMs = centerMs
        previousSpeed = speed
        previousGrade = grade
        accountedThrough = LinkMilliseconds(Int64(centerMs.rounded()))
    }

    private static func clampUnit(_ x: Double) -> Double {
        x.isFinite ? min(1, max(0, x)) : 0
    }
}
