import FairFuelCore
import FairFuelDomain
import FairFuelReports
import FairFuelStore

/// The car's store as the web app reads and changes it: one writer connection, one request at a
/// time, and every change through the store operation the CLI calls (the same validation, one
/// transaction, bills re-split, uplink messages queued).
actor WebBook {
    let db: TripStore
    let configuration: WebConfiguration
    /// The book and the trips as last read, with the store's data version then: pages read them again
    /// only after a commit (another process's changes the version; this one's own writes drop it).
    private var cached: (version: Int64, book: StoreBook, trips: [TripRow])?

    /// Opens the store at `configuration.storePath` for writing (the caller checks that it exists: this would make one).
    init(configuration: WebConfiguration) throws(WebError) {
        self.configuration = configuration
        do {
            db = try TripStore(path: configuration.storePath)
        } catch {
            throw .unavailable("cannot open the store \(configuration.storePath): \(error)")
        }
        db.uplink = configuration.uplink
    }

    /// Runs `body` against the store, the store's refusals told as the web tells them (a change held
    /// back until confirmed, in the family's units).
    func read<T: Sendable>(_ body: (TripStore) throws(StoreError) -> T) throws(WebError) -> T {
        do { return try body(db) } catch {
            guard error.kind == .needsConfirmation else { throw WebError(error) }
            throw WebError(error, units: (try? db.vehicle()).map { configuration.units($0) })
        }
    }

    func units() throws(WebError) -> DisplayUnits {
        let vehicle = try read { db throws(StoreError) in try db.vehicle() }
        return configuration.units(vehicle)
    }

    func book() throws(WebError) -> StoreBook { try snapshot().book }

    /// The book and every trip, from the cache while nothing was committed since.
    func snapshot() throws(WebError) -> (book: StoreBook, trips: [TripRow]) {
        let version = try read { db throws(StoreError) in try db.dataVersion() }
        if let cached, cached.version == version { return (cached.book, cached.trips) }
        let units = try units()
        let book = try read { db throws(StoreError) in try StoreBook(db, units: units) }
        let trips = try read { db throws(StoreError) in
            let names = Dictionary(try db.drivers(includingRemoved: true).map { ($0.id, $0.name) }) { first, _ in first }
            return TripRow.merged(sessions: try db.sessions(), untracked: try db.untrackedDriving()) { names[$0] }
        }
        cached = (version, book, trips)
        return (book, trips)
    }

    /// After this connection's own write (which leaves the data version as it was).
    private func changed() {
        cached = nil
        configuration.afterBookChange()
    }

    /// The store's estimate of the litres in the tank (nil before a full-tank refuel), and the tank's size.
    func tank() throws(WebError) -> (liters: Double?, capacityLiters: Double) {
        try read { db throws(StoreError) in (try db.estimatedTankLiters(), try db.vehicle().tankLiters) }
    }

    // MARK: Users

    func user(named name: String) throws(WebError) -> WebUser? {
        try read { db throws(StoreError) in try db.webUser(named: name) }
    }

    // MARK: Trips

    /// Every trip and untracked driving, oldest first, as `fairfuel trips` lists them.
    func trips() throws(WebError) -> [TripRow] { try snapshot().trips }

    /// One trip and its stored positions (untracked driving has none).
    func trip(_ reference: TripReference) throws(WebError) -> (row: TripRow, points: [TrackPoint]) {
        guard let row = try trips().first(where: { $0.reference == reference.description }) else {
            throw .notFound("no trip \(reference)")
        }
        guard case let .session(id) = reference else { return (row, []) }
        let points = try read { db throws(StoreError) in try db.tripPoints(session: SessionID(id)).map(TrackPoint.init) }
        return (row, points)
    }

    /// `fairfuel trips assign`: the trip given to `driverName` (a current driver, any case).
    func assign(_ reference: TripReference, to driverName: String, force: Bool) throws(WebError) -> (change: BookChange, trips: [TripCorrection]) {
        let result = try read { db throws(StoreError) in
            guard try db.tripReferences().contains(reference) else { throw .notFound("no trip \(reference)") }
            let driver = try db.requireDriver(named: driverName)
            return try db.assignTrips([reference], to: driver.id, force: force)
        }
        changed()
        return result
    }

    /// `fairfuel trips delete`: the track and session go, the fuel stays as untracked driving.
    func delete(_ reference: TripReference, force: Bool) throws(WebError) -> (change: BookChange, trip: TripCorrection) {
        let result = try read { db throws(StoreError) in
            guard try db.tripReferences().contains(reference) else { throw .notFound("no trip \(reference)") }
            return try db.deleteTrip(reference, force: force)
        }
        changed()
        return result
    }

    // MARK: Refuels and bills

    func refuels() throws(WebError) -> [(id: Int64, refuel: RefuelInput)] {
        try read { db throws(StoreError) in try db.refuels() }
    }

    /// `fairfuel refuel`: the store's checks (its typo checks against the request's clock, unless confirmed) in one transaction.
    /// The receipt (metadata already stripped) is kept right after, in its own transaction; one past the
    /// receipts' total limit is refused first, before the refuel is added.
    func addRefuel(_ input: RefuelInput, confirmed: Bool, receipt: ReceiptImage? = nil) throws(WebError) -> (id: Int64, change: BookChange) {
        if let receipt {
            let stored = try read { db throws(StoreError) in try db.receiptBytes() }
            if let refusal = TripStore.receiptRefusal(
                imageBytes: receipt.bytes.count, storedBytes: stored, totalLimitBytes: configuration.receiptsLimitBytes)
            {
                throw .refused(refusal)
            }
        }
        let now = configuration.nowUTCMs()
        let result = try read { db throws(StoreError) in try db.addRefuelShowingChange(input, force: confirmed, entryClockUTCMs: now) }
        changed()
        if let receipt {
            try read { db throws(StoreError) in 
                try db.attachReceipt(refuel: result.id, mediaType: receipt.mediaType, image: receipt.bytes, totalLimitBytes: configuration.receiptsLimitBytes)
            }
            cached = nil
        }
        return result
    }

    /// `fairfuel refuel edit`: the store's edit and its checks (as for `addRefuel`) in one transaction.
    func editRefuel(id: Int64, _ edit: RefuelEdit, confirmed: Bool) throws(WebError) -> BookChange {
        let now = configuration.nowUTCMs()
        let change = try read { db throws(StoreError) in try db.editRefuel(id: id, edit, force: confirmed, entryClockUTCMs: now) }
        changed()
        return change
    }

    /// `fairfuel refuel remove`: every split recomputed; a settled bill that would move asks for a confirmation.
    func removeRefuel(id: Int64, confirmed: Bool) throws(WebError) -> BookChange {
        try requireRefuel(id)
        let change = try read { db throws(StoreError) in try db.removeRefuel(id: id, force: confirmed) }
        changed()
        return change
    }

    func refuelsWithReceipts() throws(WebError) -> Set<Int64> {
        try read { db throws(StoreError) in try db.refuelsWithReceipts() }
    }

    func receipt(refuel id: Int64) throws(WebError) -> (mediaType: String, image: [UInt8])? {
        try read { db throws(StoreError) in try db.receipt(refuel: id) }
    }

    /// The bill not yet paid, split as the next refuel's will be (`TripStore.openBill`).
    func openBill() throws(WebError) -> OpenBill {
        try read { db throws(StoreError) in try db.openBill() }
    }

    func splits() throws(WebError) -> [RefuelSplit] {
        try read { db throws(StoreError) in try db.splits() }
    }

    func settle(_ id: Int64) throws(WebError) -> Bool {
        try requireRefuel(id)
        let now = configuration.nowUTCMs()
        let settled = try read { db throws(StoreError) in try db.settleRefuels([id], atUTCMs: now) }.contains(id)
        // As the CLI's settle: the bills the running service publishes carry their settled mark.
        if settled { changed() } else { cached = nil }
        return settled
    }

    func unsettle(_ id: Int64) throws(WebError) -> (change: BookChange, unsettled: Bool) {
        try requireRefuel(id)
        let result = try read { db throws(StoreError) in try db.unsettleRefuels([id]) }
        changed()
        return (result.change, result.unsettled.contains(id))
    }

    func refuel(_ id: Int64) throws(WebError) -> RefuelInput {
        guard let bill = try refuels().first(where: { $0.id == id })?.refuel else { throw .notFound("no refuel with id \(id)") }
        return bill
    }

    private func requireRefuel(_ id: Int64) throws(WebError) {
        guard try refuels().contains(where: { $0.id == id }) else { throw .notFound("no refuel with id \(id)") }
    }

    // MARK: Drivers

    func drivers() throws(WebError) -> [DriverRecord] {
        try read { db throws(StoreError) in try db.drivers() }
    }

    func driver(id: Int64) throws(WebError) -> DriverRecord {
        guard let driver = try drivers().first(where: { $0.id.rawValue == id }) else { throw .notFound("no driver with id \(id)") }
        return driver
    }

    /// `fairfuel provision driver add NAME`: a new driver without tag or beacon (the car learns them by a
    /// tap), or a removed one of that name brought back with their past trips. The running service is told.
    func addDriver(named name: String) throws(WebError) -> DriverRecord {
        let id = try read { db throws(StoreError) in try db.addOrRestoreDriver(name: name, tags: [], beacons: []).id }
        changed()
        return try driver(id: id.rawValue)
    }

    func renameDriver(id: Int64, to name: String) throws(WebError) -> DriverRecord {
        let driver = try driver(id: id)
        defer { changed() }
        return try read { db throws(StoreError) in try db.renameDriver(named: driver.name, to: name) }
    }

    func removeDriver(id: Int64) throws(WebError) -> DriverRecord {
        let driver = try driver(id: id)
        defer { changed() }
        return try read { db throws(StoreError) in try db.removeDriver(named: driver.name) }
    }
}
