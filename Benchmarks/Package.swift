// swift-tools-version: 6.1
// Benchmarks for FairFuel, kept in their own package so that the product's
// build and test run do not compile the benchmark framework.
// Run: scripts/bench.sh (or cd Benchmarks && swift package benchmark --target NAME)
import PackageDescription

/// Each benchmark suite and the FairFuel libraries it measures.
let suites: [(name: String, libraries: [String])] = [
    ("LinkCodec", ["FairFuelCore", "FairFuelLink", "FairFuelSimulation"]),
    ("NMEAParsing", ["FairFuelCore", "FairFuelLink", "FairFuelParsers"]),
    ("BLEParsing", ["FairFuelCore", "FairFuelLink", "FairFuelParsers"]),
    ("Domain", ["FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain"]),
    ("ServiceCore", ["FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain", "FairFuelServiceCore", "FairFuelSimulation"]),
    // FairFuelSQLite is not a product of FairFuel: the store exposes the VFS counts itself.
    ("Store", ["FairFuelCore", "FairFuelParsers", "FairFuelDomain", "FairFuelStore", "FairFuelConfiguration", "FairFuelService"]),
    ("Soak", ["FairFuelCore", "FairFuelParsers", "FairFuelStore", "FairFuelSimulation", "FairFuelSimulationRunner", "FairFuelService"]),
]

let package = Package(
    name: "FairFuelBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "FairFuel", path: ".."),
        .package(
            url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1",
            traits: ["MallocInterposer"]),
    ],
    targets: suites.map { suite in
        .executableTarget(
            name: suite.name,
            dependencies: [.product(name: "Benchmark", package: "benchmark")]
                + suite.libraries.map { .product(name: $0, package: "FairFuel") },
            path: "Benchmarks/\(suite.name)",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
    }
)
