// swift-tools-version: 6.1
// A fixture for scripts/check-layers.sh --self-test: each target breaks the layer rule one way
// (expected.txt lists what the script must print). Never built.
import PackageDescription

let package = Package(
    name: "LayerViolations",
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.1.1"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite"),
        .target(name: "FairFuelCore"),
        .target(name: "FairFuelLink", dependencies: ["FairFuelCore", "FairFuelDomain"]),
        .target(name: "FairFuelDomain", dependencies: ["FairFuelCore", .product(name: "RealModule", package: "swift-numerics")]),
        .target(name: "FairFuelSimulation", dependencies: ["FairFuelCore", "TestSupport"]),
        .target(name: "FairFuelUnlisted", dependencies: ["FairFuelCore"]),
        .target(name: "FairFuelWeb", dependencies: ["FairFuelCore", "FairFuelSimulation"]),
        .executableTarget(name: "fairfueld", dependencies: ["FairFuelCore", "FairFuelUnlisted", "FairFuelWeb"]),
        .executableTarget(
            name: "fairfuel",
            dependencies: ["FairFuelCore", "CSQLite", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .target(name: "TestSupport", dependencies: ["FairFuelCore"], path: "Tests/TestSupport"),
        .testTarget(name: "FairFuelDomainTests", dependencies: ["FairFuelDomain", "TestSupport"], exclude: ["Fixtures"]),
    ]
)
