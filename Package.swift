// swift-tools-version: 6.1
// FairFuel: the in-car dongle service. What each target may use is the house table, enforced by
// scripts/check-layers.sh (its MAY_USE table, one line per target); docs/architecture.md shows the
// module table this manifest gives (scripts/architecture.sh keeps it in step). In short: the
// sans-I/O core (Core, Link, Parsers, Domain, ServiceCore) imports no store, edge or C library;
// the C libraries are reached only from SQLite (sqlite3) and Edges (libserialport, libgps,
// libmosquitto, libcrypto); `fairfueld` links none of Reports, Simulation, Pull, the web app or the hub's PostgreSQL store.
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
        .library(name: "FairFuelServiceCore", targets: ["FairFuelServiceCore"]),
        .library(name: "FairFuelConfiguration", targets: ["FairFuelConfiguration"]),
        .library(name: "FairFuelEdges", targets: ["FairFuelEdges"]),
        .library(name: "FairFuelReports", targets: ["FairFuelReports"]),
        .library(name: "FairFuelPull", targets: ["FairFuelPull"]),
        .library(name: "FairFuelSimulation", targets: ["FairFuelSimulation"]),
        .library(name: "FairFuelSimulationRunner", targets: ["FairFuelSimulationRunner"]),
        .library(name: "FairFuelService", targets: ["FairFuelService"]),
        .library(name: "FairFuelWeb", targets: ["FairFuelWeb"]),
        .library(name: "FairFuelHubPostgres", targets: ["FairFuelHubPostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Elementary functions (sin, cos, exp, log, pow) without the C library in the lower layers.
        .package(url: "https://github.com/apple/swift-numerics.git", from: "1.1.1"),
        // The family's web app (`fairfuel web`): HTTP server, bcrypt and sessions. Never in fairfueld.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        // HTTPS in the web app (HummingbirdTLS); the hub's PostgreSQL client needs it anyway.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The hub's database on PostgreSQL (`fairfuel hub --db postgres://...`). Never in fairfueld.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // C libraries from Debian (headers in /usr/include, libraries in the linker's default path).
        // libserialport and sqlite3 name no pkg-config: theirs add -L/usr/lib/<triple> ahead of every
        // other search directory, and fairfueld's release link must find static-libs' linker script
        // first (its static SQLite); they add nothing else (no -I, no other -l).
        .systemLibrary(
            name: "CSerialPort",
            providers: [.apt(["libserialport-dev"])]),
        // libgps's header only: loaded with dlopen by the gpsd client (no pkg-config: its -lgps would
        // map libgps, libdbus and libsystemd's dependencies, 0.9 MB, in every process).
        .systemLibrary(
            name: "CGPS",
            providers: [.apt(["libgps-dev"])]),
        .systemLibrary(
            name: "CSQLite",
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
        .target(name: "FairFuelParsers", dependencies: ["FairFuelCore", .product(name: "RealModule", package: "swift-numerics")]),
        .target(name: "FairFuelDomain", dependencies: ["FairFuelCore", "FairFuelParsers", .product(name: "RealModule", package: "swift-numerics")]),
        // The service without its I/O: events with their times in, actions out (no clock, no descriptor, no libc).
        .target(name: "FairFuelServiceCore", dependencies: ["FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain"]),
        // A thin, typed wrapper of libsqlite3: the only place the store's C calls live.
        .target(name: "FairFuelSQLite", dependencies: ["CSQLite"]),
        .target(
            name: "FairFuelStore",
            dependencies: ["FairFuelCore", "FairFuelParsers", "FairFuelDomain", "FairFuelSQLite", .product(name: "RealModule", package: "swift-numerics")]),
        // Board and MCU profiles (FairFuel's TOML subset), provisioning bundles and the rules typed
        // arguments follow: parsed from text, so reading the files is the caller's (Edges, the shell).
        .target(
            name: "FairFuelConfiguration",
            dependencies: ["FairFuelCore", "FairFuelLink", "FairFuelParsers"]),
        .target(
            name: "FairFuelEdges",
            dependencies: ["FairFuelCore", "FairFuelLink", "FairFuelParsers", "CSerialPort", "CGPS", "CPosixShims", "CMosquitto"]),
        // The virtual MCU's core, scenarios, the soak and synthetic traffic: for `fairfuel sim`, tests and
        // benchmarks. Sans-I/O (it reads no file and opens no terminal), its math from RealModule.
        .target(
            name: "FairFuelSimulation",
            dependencies: [
                "FairFuelCore", "FairFuelLink", "FairFuelParsers",
                .product(name: "RealModule", package: "swift-numerics"),
            ]),
        // The virtual MCU on a pseudo-terminal, scenario files and soak capture files: the simulation's
        // I/O, through the edges. Unit test targets do without it and so link no C edges.
        .target(
            name: "FairFuelSimulationRunner",
            dependencies: ["FairFuelCore", "FairFuelLink", "FairFuelSimulation", "FairFuelEdges"]),
        // Trips, summaries and reports as text, HTML, CSV, JSON, GPX and GeoJSON: for the CLI and pull.
        .target(name: "FairFuelReports", dependencies: ["FairFuelCore", "FairFuelParsers", "FairFuelDomain", "FairFuelStore"]),
        // USB pull: the protocol (frames, pairing handshake with HMAC-SHA256 from libcrypto, loaded with
        // dlopen so that the daemon never maps it), the dongle's server and the laptop's client.
        .target(
            name: "FairFuelPull",
            dependencies: ["FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain", "FairFuelStore", "FairFuelEdges", "FairFuelReports"]),
        // The runtime shell around the core: the poll loop that reads and performs, the store's
        // recorder, capture replays.
        .target(
            name: "FairFuelService",
            dependencies: [
                "FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain",
                "FairFuelStore", "FairFuelConfiguration", "FairFuelEdges", "FairFuelServiceCore",
            ]),
        // The family's web app: pages and /api/v1 over the same store operations the CLI calls.
        .target(
            name: "FairFuelWeb",
            dependencies: [
                "FairFuelCore", "FairFuelParsers", "FairFuelDomain", "FairFuelStore", "FairFuelConfiguration", "FairFuelReports", "FairFuelPull",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "RealModule", package: "swift-numerics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // The hub's record store on PostgreSQL: the store's `HubRecordStoring` over postgres-nio, for the CLI's hub.
        .target(
            name: "FairFuelHubPostgres",
            dependencies: [
                "FairFuelStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "fairfuel",
            dependencies: [
                "FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain", "FairFuelStore",
                "FairFuelConfiguration", "FairFuelEdges", "FairFuelReports", "FairFuelSimulation", "FairFuelSimulationRunner", "FairFuelPull",
                "FairFuelService", "FairFuelWeb", "FairFuelHubPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The daemon systemd runs (/usr/sbin/fairfueld): the service alone, no argument parser.
        .executableTarget(
            name: "fairfueld", dependencies: ["FairFuelConfiguration", "FairFuelService"],
            exclude: ["fairfueld.order", "static-libs"],
            linkerSettings: [
                // Release builds (the .deb, scripts/memory.sh) link with lld: no dynamic export of our
                // own symbols (the static runtime's -export-dynamic put 11 000 in .dynsym), and the
                // relative relocations packed (DT_RELR, glibc 2.36) rather than 29 000 RELA entries
                // the loader reads at start: 1.5 MB less resident, the same code. The code the daemon
                // runs is laid out together (fairfueld.order, from scripts/memory.sh TOUCHED=1), so that
                // the kernel's 64 KiB fault-around maps less of what it never runs: 1.8 MB less.
                // The C++ runtime the Swift runtime needs is linked from GCC's static archive
                // (static-libs/libstdc++.so says how): 0.7 MB less than mapping libstdc++.so.6. So does
                // SQLite, from Debian's static archive (static-libs/libsqlite3.so; public domain): only
                // the objects used, laid out with the rest by fairfueld.order, and no symbol tables,
                // relocations or data pages of its own: about 0.5 MB less busy. libserialport stays
                // shared: it is LGPL-3.0+, and FairFuel has no licence yet that would let a user relink it.
                // -static-libgcc: the unwinder libstdc++.a needs from GCC's libgcc_eh.a, not libgcc_s.so.1.
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/fairfueld/fairfueld.order",
                        "-Xlinker", "--no-warn-symbol-ordering",
                        "-L\(Context.packageDirectory)/Sources/fairfueld/static-libs",
                        "-Xclang-linker", "-static-libgcc",
                    ],
                    .when(platforms: [.linux], configuration: .release)),
            ]),

        .target(
            name: "TestSupport",
            dependencies: ["FairFuelCore", "FairFuelLink", "FairFuelSimulation", "FairFuelParsers", "FairFuelDomain"],
            path: "Tests/TestSupport"),
        // The real-life month's machinery, shared by the replay tier's month test and the studies.
        .target(
            name: "ReplaySupport",
            dependencies: [
                "FairFuelCore", "FairFuelDomain", "FairFuelLink", "FairFuelService", "FairFuelSQLite", "FairFuelStore", "TestSupport",
            ],
            path: "Tests/ReplaySupport"),
        .testTarget(name: "FairFuelCoreTests", dependencies: ["FairFuelCore", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "FairFuelLinkTests", dependencies: ["FairFuelCore", "FairFuelLink", "TestSupport"]),
        .testTarget(
            name: "FairFuelServiceCoreTests",
            dependencies: [
                "FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain", "FairFuelServiceCore", "FairFuelSimulation", "TestSupport",
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "FairFuelPullTests",
            dependencies: ["FairFuelCore", "FairFuelDomain", "FairFuelEdges", "FairFuelPull", "FairFuelLink", "FairFuelReports", "FairFuelStore", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "FairFuelConfigurationTests",
            dependencies: ["FairFuelLink", "FairFuelParsers", "FairFuelConfiguration", "FairFuelEdges", "TestSupport"]),
        .testTarget(
            name: "FairFuelReportsTests",
            dependencies: ["FairFuelCore", "FairFuelDomain", "FairFuelStore", "FairFuelReports", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "FairFuelParsersTests", dependencies: ["FairFuelCore", "FairFuelParsers", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "FairFuelDomainTests", dependencies: ["FairFuelCore", "FairFuelParsers", "FairFuelDomain", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "FairFuelEdgesTests", dependencies: ["FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelEdges", "TestSupport"]),
        .testTarget(name: "FairFuelSQLiteTests", dependencies: ["FairFuelSQLite"]),
        .testTarget(
            name: "FairFuelStoreTests",
            dependencies: ["FairFuelCore", "FairFuelParsers", "FairFuelDomain", "FairFuelStore", "FairFuelSQLite", "TestSupport"]),
        .testTarget(
            name: "FairFuelServiceTests",
            dependencies: [
                "FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain", "FairFuelSQLite", "FairFuelStore",
                "FairFuelConfiguration", "FairFuelEdges", "FairFuelReports", "FairFuelSimulation", "FairFuelSimulationRunner",
                "FairFuelServiceCore", "FairFuelService", "TestSupport", "ReplaySupport",
            ]),
        .testTarget(
            name: "FairFuelSimulationTests",
            dependencies: [
                "FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain", "FairFuelEdges", "FairFuelSimulation",
                "FairFuelSimulationRunner", "TestSupport",
            ]),
        .testTarget(
            name: "CLITests", dependencies: ["fairfuel", "FairFuelConfiguration", "FairFuelCore", "FairFuelLink", "FairFuelParsers", "FairFuelDomain", "FairFuelEdges", "FairFuelPull", "FairFuelStore", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "FairFuelWebTests",
            dependencies: [
                "fairfuel", "FairFuelCore", "FairFuelDomain", "FairFuelStore", "FairFuelReports", "FairFuelWeb", "TestSupport",
                // The hub's corrections reach a car's own command receiver through a real broker.
                "FairFuelPull", "FairFuelEdges", "FairFuelService",
                // The hub's view over PostgreSQL, its records written by the hub's own store.
                "FairFuelHubPostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // The studies (minutes to hours each, off unless a scripts/study-*.sh turns one on), as
        // Benchmarks/ holds the benchmarks: built with the tests, never run by them.
        .testTarget(
            name: "FairFuelStudies",
            dependencies: ["FairFuelCore", "FairFuelDomain", "TestSupport", "ReplaySupport"],
            path: "Studies"),
        // `fairfuel run`, `fairfueld` and `fairfuel sim` as separate processes on real pseudo-terminals.
        .testTarget(
            name: "FairFuelIntegrationTests",
            dependencies: [
                "fairfuel", "fairfueld", "TestSupport", "FairFuelCore", "FairFuelStore", "FairFuelSQLite", "FairFuelSimulation",
                "FairFuelSimulationRunner", "FairFuelEdges", "FairFuelReports", "FairFuelHubPostgres",
            ],
            resources: [.copy("Fixtures")]),
    ]
)
