extension BoardProfile {
    /// The compiled-in default: a Raspberry Pi Zero 2 W with a 16 GB SD card.
    ///
    /// Must equal `boards/pi-zero-2w.toml` (a test compares them); that file's
    /// comments say how each value was sized.
    public static let piZero2W = BoardProfile(
        board: Board(
            name: "pi-zero-2w",
            description: "Raspberry Pi Zero 2 W: 4x Cortex-A53, 512 MB RAM, 16 GB SD card",
            ramMB: 512,
            storage: .sdCard,
            storageBytes: 16_000_000_000),
        link: Link(
            port: "/dev/fairfuel-mcu",
            baud: 115_200,
            receiveRingBytes: 4096,
            transmitQueueFrames: 16,
            reconnectBackoffMinMs: 250,
            reconnectBackoffMaxMs: 10_000,
            mcuSilenceLimitMs: 10_000,
            mcuBoard: "fairfuel-uart"),
        gnss: GNSS(
            source: .mcu,
            gpsdHost: "127.0.0.1",
            gpsdPort: 2947,
            allowMissingChecksum: false,
            maxEpochHz: 10),
        ble: BLE(
            beaconsInRangeCapacity: 32,
            rssiWindowSamples: 8),
        session: Session(
            eventQueueCapacity: 256),
        store: Store(
            path: "/var/lib/fairfuel/fairfuel.db",
            tripPointFlushSeconds: 10,
            tripPointFlushPoints: 100,
            tripPointKeepHz: 1,
            diskBudgetBytes: 2_147_483_648,
            tripPointMaxAgeDays: 400,
            eventLogMaxRows: 20_000,
            pageCacheKiB: 256),
        control: Control(
            socketPath: "/run/fairfuel/control.sock",
            group: "fairfuel",
            socketMode: 0o660,
            maxClients: 16),
        usbPull: USBPull(
            enabled: true,
            port: "/dev/ttyGS0",
            usbVendorID: 0x1209,
            usbProductID: 0x4647),
        service: Service(
            watchdogSeconds: 30,
            memoryTargetBytes: 16_777_216),
        web: {
            // The app behind fairfuel-web.socket's proxy exits when idle; the socket starts it again.
            var web = Web()
            web.idleExitSeconds = 600
            return web
        }())
}
