// swift-tools-version: 6.1
// A fixture for scripts/check-layers.sh --self-test: a package that keeps the layer rule
// (expected.txt is empty: no finding, exit 0), with one excused import (exceptions.txt). Never built.
import PackageDescription

let package = Package(
    name: "LayersKept",
    dependencies: [
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.1.1"),
    ],
    targets: [
        .target(name: "CPosixShims"),
        .target(name: "FairFuelCore"),
        .target(name: "FairFuelLink", dependencies: ["FairFuelCore"]),
        .target(name: "FairFuelParsers", dependencies: ["FairFuelCore", .product(name: "RealModule", package: "swift-numerics")]),
        .target(name: "FairFuelEdges", dependencies: ["FairFuelCore", "FairFuelParsers", "CPosixShims"]),
        .testTarget(name: "FairFuelLinkTests", dependencies: ["FairFuelLink", "FairFuelCore"]),
    ]
)
