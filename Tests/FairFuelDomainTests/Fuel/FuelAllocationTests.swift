import FairFuelDomain
import Testing

/// The per-sample path holds no references: the estimator, the model and the baseline
/// are plain bit-copyable values, so `add` has nothing to retain, grow or free. (A malloc
/// count belongs in the Benchmarks package; hooking the Swift runtime's allocator inside
/// the shared test process is not reliable.)
@Suite struct FuelAllocationTests {
    @Test func perSampleStateIsPlainData() {
        #expect(_isPOD(FuelEstimator.self))
        #expect(_isPOD(FuelModel.self))
        #expect(_isPOD(DistanceOnlyFuelEstimator.self))
        #expect(_isPOD(FuelEstimatorSettings.self))
    }
}
