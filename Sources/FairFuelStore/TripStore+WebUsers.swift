import FairFuelSQLite

/// Someone who may log in to the family's web app.
public struct WebUser: Sendable, Equatable {
    /// `family` may do everything; `driver` sees the book, enters refuels and names their own untracked trips.
    public enum Role: String, Sendable, CaseIterable {
        case family, driver
    }

    public var id: Int64
    public var name: String
    public var role: Role
    /// bcrypt's own text (`$2b$...`): the hash and its salt, never the password.
    public var passwordHash: String
    public var createdUTCMs: Int64

    public init(id: Int64, name: String, role: Role, passwordHash: String, createdUTCMs: Int64) {
        self.id = id
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.createdUTCMs = createdUTCMs
    }
}

extension TripStore {
    /// The longest user name the web app takes (it is shown on every page).
    public static let webUserNameMaximumLength = 64

    /// Adds a web user; a name already taken (any case) or empty is refused and nothing changes.
    @discardableResult
    public func addWebUser(name: String, role: WebUser.Role, passwordHash: String, atUTCMs: Int64) throws(StoreError) -> WebUser {
        let trimmed = name.trimmingWhitespace
        guard !trimmed.isEmpty, trimmed.count <= Self.webUserNameMaximumLength else {
            throw .invalid("a web user needs a name of 1 to \(Self.webUserNameMaximumLength) characters")
        }
        guard passwordHash.hasPrefix("$2") else { throw .invalid("a web user's password must be stored as a bcrypt hash") }
        if try webUser(named: trimmed) != nil { throw .invalid("a web user named '\(trimmed)' already exists") }
        let id: Int64 = try write {
            try connection.run(
                "INSERT INTO web_users (name, role, password_hash, created_utc_ms) VALUES (?, ?, ?, ?)",
                .text(trimmed), .text(role.rawValue), .text(passwordHash), .integer(atUTCMs))
            return try connection.scalarInt("SELECT last_insert_rowid()") ?? 0
        }
        return WebUser(id: id, name: trimmed, role: role, passwordHash: passwordHash, createdUTCMs: atUTCMs)
    }

    /// Removes the web user called `name` (any case); an unknown name is refused.
    @discardableResult
    public func removeWebUser(named name: String) throws(StoreError) -> WebUser {
        guard let user = try webUser(named: name) else { throw .notFound("no web user named '\(name.trimmingWhitespace)'") }
        try write { try connection.run("DELETE FROM web_users WHERE id = ?", .integer(user.id)) }
        return user
    }

    /// Every web user, in the order they were added.
    public func webUsers() throws(StoreError) -> [WebUser] {
        try wrap { () throws(SQLiteError) in
            try connection.query("SELECT \(Self.webUserColumns) FROM web_users ORDER BY id", row: Self.webUserOfRow)
        }
    }

    /// The web user with this id, or nil (one read by the primary key: the web app asks at every request).
    public func webUser(id: Int64) throws(StoreError) -> WebUser? {
        try wrap { () throws(SQLiteError) in
            try connection.query("SELECT \(Self.webUserColumns) FROM web_users WHERE id = ?", .integer(id), row: Self.webUserOfRow).first
        }
    }

    /// The web user called `name` (any case), or nil.
    public func webUser(named name: String) throws(StoreError) -> WebUser? {
        let key = Self.webUserNameKey(name)
        return try webUsers().first { $0.name.lowercased() == key }
    }

    /// What names are compared by (any case, spaces around ignored): the web app's login limit counts by it.
    public static func webUserNameKey(_ name: String) -> String { name.trimmingWhitespace.lowercased() }

    private static let webUserColumns = "id, name, role, password_hash, created_utc_ms"

    private static func webUserOfRow(_ row: SQLiteStatement) -> WebUser {
        WebUser(
            id: row.int64(0), name: row.text(1) ?? "", role: WebUser.Role(rawValue: row.text(2) ?? "") ?? .driver,
            passwordHash: row.text(3) ?? "", createdUTCMs: row.int64(4))
    }
}

extension TripStore {
    /// Keeps a refuel's receipt photo (the caller strips its metadata); it goes when the refuel does.
    /// Past `totalLimitBytes` for all photos together it is refused and nothing changes.
    public func attachReceipt(refuel id: Int64, mediaType: String, image: [UInt8], totalLimitBytes: Int64) throws(StoreError) {
        try write {
            guard try connection.scalarInt("SELECT COUNT(*) FROM refuels WHERE id = ?", .integer(id)) == 1 else {
                throw StoreError.notFound("no refuel with id \(id)")
            }
            let others = try connection.scalarInt(
                "SELECT COALESCE(SUM(length(image)), 0) FROM refuel_receipts WHERE refuel_id != ?", .integer(id)) ?? 0
            if let refusal = Self.receiptRefusal(imageBytes: image.count, storedBytes: others, totalLimitBytes: totalLimitBytes) {
                throw StoreError.invalid(refusal)
            }
            try connection.run(
                "INSERT OR REPLACE INTO refuel_receipts (refuel_id, media_type, image) VALUES (?, ?, ?)", .integer(id), .text(mediaType), .blob(image))
        }
    }

    /// All receipt photos' bytes together.
    public func receiptBytes() throws(StoreError) -> Int64 {
        try wrap { () throws(SQLiteError) in try connection.scalarInt("SELECT COALESCE(SUM(length(image)), 0) FROM refuel_receipts") ?? 0 }
    }

    /// Why a photo of `imageBytes` does not fit beside `storedBytes` of others, or nil when it does.
    public static func receiptRefusal(imageBytes: Int, storedBytes: Int64, totalLimitBytes: Int64) -> String? {
        guard storedBytes + Int64(imageBytes) > totalLimitBytes else { return nil }
        let mib = { (bytes: Int64) in "\((bytes + (1 << 19)) >> 20) MiB" }
        return "the receipt photo (\(mib(Int64(imageBytes)))) does not fit: the stored receipts take \(mib(storedBytes)) "
            + "of the \(mib(totalLimitBytes)) kept for them ([web] receipts_limit_mib); nothing was saved"
    }

    /// A refuel's receipt photo, or nil.
    public func receipt(refuel id: Int64) throws(StoreError) -> (mediaType: String, image: [UInt8])? {
        try wrap { () throws(SQLiteError) in
            try connection.query("SELECT media_type, image FROM refuel_receipts WHERE refuel_id = ?", .integer(id)) { row in
                (row.text(0) ?? "", row.blob(1))
            }.first
        }
    }
}

extension TripStore {
    /// SQLite's `data_version`: it changes when another connection (the service, the CLI) commits to
    /// the file, not at this connection's own commits. What a reader's cache is keyed on.
    public func dataVersion() throws(StoreError) -> Int64 {
        try wrap { () throws(SQLiteError) in try connection.pragmaInt("data_version") }
    }
}

extension TripStore {
    /// The refuels that have a receipt photo.
    public func refuelsWithReceipts() throws(StoreError) -> Set<Int64> {
        try wrap { () throws(SQLiteError) in Set(try connection.query("SELECT refuel_id FROM refuel_receipts") { $0.int64(0) }) }
    }
}
