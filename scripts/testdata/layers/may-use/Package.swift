// swift-tools-version: 6.1
// A fixture for scripts/check-layers.sh --self-test: each target of MAY_USE declares and imports one
// module its line does not allow (expected.txt lists what the script must print), and the rules of
// NEVER_REACHES meet chains of declared dependencies; exceptions.txt excuses one import and lists one
// that nothing uses. Never built.
import PackageDescription

let package = Package(
    name: "MayUse",
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.1.1"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite"),
        .target(name: "FairFuelCore", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        .target(name: "FairFuelLink", dependencies: ["FairFuelCore", "FairFuelParsers"]),
        .target(name: "FairFuelParsers", dependencies: ["FairFuelCore", "FairFuelEdges"]),
        .target(name: "FairFuelDomain", dependencies: ["FairFuelCore", "FairFuelLink", "FairFuelParsers"]),
        .target(name: "FairFuelSQLite", dependencies: ["CSQLite", "FairFuelCore"]),
        .target(name: "FairFuelStore", dependencies: ["FairFuelCore", "FairFuelDomain", "FairFuelSQLite", "FairFuelReports", "FairFuelEdges"]),
        .target(name: "FairFuelConfiguration", dependencies: ["FairFuelCore", "FairFuelStore"]),
        .target(name: "FairFuelServiceCore", dependencies: ["FairFuelCore", "FairFuelConfiguration", "FairFuelSQLite"]),
        .target(name: "FairFuelEdges", dependencies: ["FairFuelCore", "FairFuelSQLite"]),
        .target(name: "FairFuelService", dependencies: ["FairFuelServiceCore", "FairFuelStore", "FairFuelSQLite"]),
        .executableTarget(name: "fairfueld", dependencies: ["FairFuelService", "FairFuelStore"]),
        .target(name: "FairFuelReports", dependencies: ["FairFuelCore", "FairFuelEdges"]),
        .target(name: "FairFuelPull", dependencies: ["FairFuelCore", "FairFuelSimulation"]),
        .target(name: "FairFuelSimulation", dependencies: ["FairFuelCore", "FairFuelEdges"]),
        .target(name: "FairFuelSimulationRunner", dependencies: ["FairFuelSimulation", "FairFuelStore"]),
        .target(name: "FairFuelWeb", dependencies: ["FairFuelCore", "FairFuelStore", "FairFuelEdges"]),
        .target(name: "FairFuelHubPostgres", dependencies: ["FairFuelStore", "FairFuelEdges"]),
        .executableTarget(
            name: "fairfuel",
            dependencies: ["FairFuelService", "FairFuelSQLite", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
    ]
)
