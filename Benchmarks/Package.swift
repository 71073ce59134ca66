// swift-tools-version: 6.1
// Benchmarks for FairFuel, kept in their own package so that the product's
// build and test run do not compile the benchmark framework.
// Run: cd Benchmarks && swift package benchmark  (or scripts/bench.sh)
import PackageDescription

let benchmarkTargets = ["LinkCodec", "NMEAParsing", "BLEParsing"]

let package = Package(
    name: "FairFuelBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "FairFuel", path: ".."),
        .package(
            url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1",
            traits: ["MallocInterposer"]),
    ],
    targets: benchmarkTargets.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "FairFuelCore", package: "FairFuel"),
                .product(name: "FairFuelLink", package: "FairFuel"),
                .product(name: "FairFuelParsers", package: "FairFuel"),
            ],
            path: "Benchmarks/\(name)",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
    }
)
