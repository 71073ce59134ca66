// swift-tools-version: 6.1
// FairFuel: the in-car dongle service. Layers, bottom up (a lower layer never
// imports a higher one): Core -> Link, Parsers -> Domain -> Store -> Edges ->
// Service -> the `fairfuel` CLI and the `fairfueld` daemon. The C libraries are reached only from Store
// (sqlite3) and Edges (libserialport, libgps).
import PackageDescription

let package = Package(
    name: "FairFuel",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "fairfuel", targets: ["fairfuel"]),
        .executable(name: "fairfueld", targets: ["fairfueld"]),
        .library(name: "FairFuelCore", targets: ["FairFuelCore"]),
        .library(name: "FairFuelLink", targets: ["FairFuelLink"]),
        .library(name: "FairFuelParsers", targets: ["FairFuelParsers"]),
        .library(name: "FairFuelDomain", targets: ["FairFuelDomain"]),
        .library(name: "FairFuelStore", targets: ["FairFuelStore"]),
        .library(name: "FairFuelEdges", targets: ["FairFuelEdges"]),
        .library(name: "FairFuelSimulation", targets: ["FairFuelSimulation"]),
        .library(name: "FairFuelService", targets: ["FairFuelService"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Elementary functions (sin, cos, exp, log, pow) without the C library in the lower layers.
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.1.1"),
    ],
    targets: [
        // C libraries from Debian, found through pkg-config.
        .systemLibrary(
            name: "CSerialPort", pkgConfig: "libserialport",
            providers: [.apt(["libserialport-dev"])]),
        // libgps's header only: loaded with dlopen by the gpsd client (no pkg-config: its -lgps would
        // map libgps, libdbus and libsystemd's dependencies, 0.9 MB, in every process).
        .systemLibrary(
            name: "CGPS",
            providers: [.apt(["libgps-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // libmosquitto's header only: the library is loaded with dlopen by the MQTT client, so
        // no pkg-config (its -lmosquitto would map libmosquitto, libssl and libcrypto, 1.9 MB, in every process).
        .systemLibrary(
            name: "CMosquitto",
            providers: [.apt(["libmosquitto-dev"])]),

        // POSIX calls Swift's Glibc module hides (posix_openpt and friends).
        .target(name: "CPosixShims"),

        .target(name: "FairFuelCore"),
        .target(name: "FairFuelLink", dependencies: ["FairFuelCore"]),
        // USB pull protocol: frames, pairing handshake (HMAC-SHA256 from libcrypto, loaded with
        // dlopen so that `run` never maps it), the dongle's session logic.
        .target(name: "FairFuelPull", dependencies: ["FairFuelCore", "FairFuelLink"]),
        .target(name: "FairFuelParsers", dependencies: ["FairFuelCore", .product(name: "RealModule", package: "swift-numerics")]),
        .target(name: "FairFuelDomain", dependencies: ["FairFuelCore", "FairFuelParsers", .product(name: "RealModule", package: "swift-numerics")]),
        // A thin, typed wrapper of libsqlite3: the only place the store's C calls live.
        .target(name: "FairFuelSQLite", dependencies: ["CSQLite"]),
        .target(
            name: "FairFuelStore",
            dependencies: ["FairFuelCore", "FairFuelParsers", "FairFuelDomain", "FairFuelSQLite", .product(name: "RealModule", package: "swift-numerics")]),
        .target(
            name: "FairFuelEdges",
            dependencies: ["FairFuelCore", "FairFuelLink", "FairFuelParsers", "CSerialPort", "CGPS", "CPosixShims", "CMosquitto"]),
        // Synthetic MCU traffic and (later) the virtual MCU: for `fairfuel sim`, tests and benchmarks.
        .target(name: "FairFuelSimulation", dependencies: ["FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelEdges"]),
        .target(
            name: "FairFuelService",
            dependencies: [
                "FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain",
                "FairFuelStore", "FairFuelEdges", "FairFuelSimulation", "FairFuelPull",
            ]),
        .executableTarget(
            name: "fairfuel",
            dependencies: [
                "FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelEdges",
                "FairFuelSimulation", "FairFuelService", "FairFuelStore", "FairFuelSQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The daemon systemd runs (/usr/sbin/fairfueld): the service alone, no argument parser.
        .executableTarget(
            name: "fairfueld", dependencies: ["FairFuelService"],
            exclude: ["fairfueld.order"],
            linkerSettings: [
                // Release builds (the .deb, scripts/memory.sh) link with lld: no dynamic export of our
                // own symbols (the static runtime's -export-dynamic put 11 000 in .dynsym), and the
                // relative relocations packed (DT_RELR, glibc 2.36) rather than 29 000 RELA entries
                // the loader reads at start: 1.5 MB less resident, the same code. The code the daemon
                // runs is laid out together (fairfueld.order, from scripts/memory.sh TOUCHED=1), so that
                // the kernel's 64 KiB fault-around maps less of what it never runs: 1.8 MB less.
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/fairfueld/fairfueld.order",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ],
                    .when(platforms: [.linux], configuration: .release)),
            ]),

        .target(
            name: "TestSupport",
            dependencies: ["FairFuelCore", "FairFuelLink", "FairFuelSimulation", "FairFuelParsers", "FairFuelDomain"],
            path: "Tests/TestSupport"),
        .testTarget(name: "FairFuelCoreTests", dependencies: ["FairFuelCore", "TestSupport"]),
        .testTarget(name: "FairFuelLinkTests", dependencies: ["FairFuelLink", "TestSupport"]),
        .testTarget(name: "FairFuelPullTests", dependencies: ["FairFuelPull", "FairFuelLink", "TestSupport"]),
        .testTarget(
            name: "FairFuelParsersTests", dependencies: ["FairFuelParsers", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "FairFuelDomainTests", dependencies: ["FairFuelDomain", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "FairFuelEdgesTests", dependencies: ["FairFuelEdges", "FairFuelParsers", "FairFuelSimulation", "TestSupport"]),
        .testTarget(
            name: "FairFuelStoreTests", dependencies: ["FairFuelStore", "FairFuelSQLite", "TestSupport"]),
        .testTarget(
            name: "FairFuelServiceTests", dependencies: ["FairFuelService", "TestSupport"],
            exclude: ["Export/Fixtures"]),
        .testTarget(name: "FairFuelSimulationTests", dependencies: ["FairFuelSimulation", "FairFuelEdges", "TestSupport"]),
        .testTarget(
            name: "CLITests", dependencies: ["fairfuel", "TestSupport"],
            exclude: ["Fixtures"]),
        // `fairfuel run`, `fairfueld` and `fairfuel sim` as separate processes on real pseudo-terminals.
        .testTarget(
            name: "FairFuelIntegrationTests",
            dependencies: ["fairfuel", "fairfueld", "TestSupport", "FairFuelStore", "FairFuelSQLite", "FairFuelSimulation", "FairFuelEdges"],
            resources: [.copy("Fixtures")]),
    ]
)
