/// The store's migrations, oldest first. Append only: a shipped migration is never edited.
enum StoreSchema {
    static let migrations: [Migration] = [
        Migration("2026-11-21-initial", """
            CREATE TABLE vehicle (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                name TEXT NOT NULL DEFAULT 'Family car',
                rated_l_per_100km REAL NOT NULL DEFAULT 6.5 CHECK (rated_l_per_100km > 0),
                mass_kg REAL NOT NULL DEFAULT 1400 CHECK (mass_kg > 0),
                idle_l_per_h REAL NOT NULL DEFAULT 0.8 CHECK (idle_l_per_h >= 0),
                fuel_type TEXT NOT NULL DEFAULT 'petrol' CHECK (fuel_type IN ('petrol', 'diesel', 'lpg')),
                tank_l REAL NOT NULL DEFAULT 55 CHECK (tank_l > 0),
                currency TEXT NOT NULL DEFAULT 'EUR',
                currency_minor_digits INTEGER NOT NULL DEFAULT 2,
                units TEXT NOT NULL DEFAULT 'metric' CHECK (units IN ('metric', 'imperial')),
                untracked_policy TEXT NOT NULL DEFAULT 'owner' CHECK (untracked_policy IN ('owner', 'pro_rata')),
                fuel_scale REAL NOT NULL DEFAULT 1.0
            );
            INSERT INTO vehicle (id) VALUES (1);

            CREATE TABLE drivers (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                contact TEXT
            );
            -- kind 'uid': upper-case hex UID; kind 'driver': the driver URI's uuid, lower case.
            CREATE TABLE driver_tags (
                id INTEGER PRIMARY KEY,
                driver_id INTEGER NOT NULL REFERENCES drivers(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('uid', 'driver')),
                value TEXT NOT NULL,
                UNIQUE (kind, value)
            );
            -- spec: the provisioning text (ibeacon:..., eddystone:..., mac:...), canonical form.
            CREATE TABLE driver_beacons (
                id INTEGER PRIMARY KEY,
                driver_id INTEGER NOT NULL REFERENCES drivers(id) ON DELETE CASCADE,
                spec TEXT NOT NULL UNIQUE
            );

            -- Times are UTC milliseconds; NULL until the first valid fix gives UTC (no RTC on a Pi).
            -- end_reason NULL: the session is open.
            CREATE TABLE sessions (
                id INTEGER PRIMARY KEY,
                driver_id INTEGER REFERENCES drivers(id) ON DELETE SET NULL,
                driver_name TEXT NOT NULL,
                run_id INTEGER NOT NULL,
                start_link_ms INTEGER NOT NULL,
                end_link_ms INTEGER,
                start_utc_ms INTEGER,
                end_utc_ms INTEGER,
                last_utc_ms INTEGER,
                end_reason TEXT CHECK (end_reason IN ('departed', 'switched', 'manual', 'power_loss')),
                stopped_utc_ms INTEGER,
                driver_left_utc_ms INTEGER,
                distance_m REAL NOT NULL DEFAULT 0,
                duration_ms INTEGER NOT NULL DEFAULT 0,
                moving_ms INTEGER NOT NULL DEFAULT 0,
                idle_ms INTEGER NOT NULL DEFAULT 0,
                max_speed_mps REAL NOT NULL DEFAULT 0,
                harsh_accel INTEGER NOT NULL DEFAULT 0,
                harsh_brake INTEGER NOT NULL DEFAULT 0,
                fuel_l REAL NOT NULL DEFAULT 0
            );
            CREATE INDEX sessions_by_start ON sessions (start_utc_ms);

            -- distance_m and fuel_l are running totals within the session.
            CREATE TABLE trip_points (
                session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                t_utc_ms INTEGER NOT NULL,
                lat REAL NOT NULL,
                lon REAL NOT NULL,
                speed_mps REAL NOT NULL,
                distance_m REAL NOT NULL,
                fuel_l REAL NOT NULL
            );
            CREATE INDEX trip_points_by_session ON trip_points (session_id, t_utc_ms);

            CREATE TABLE untracked_driving (
                id INTEGER PRIMARY KEY,
                from_utc_ms INTEGER NOT NULL,
                to_utc_ms INTEGER NOT NULL,
                distance_m REAL NOT NULL,
                fuel_l REAL NOT NULL
            );
            CREATE INDEX untracked_by_time ON untracked_driving (to_utc_ms);

            CREATE TABLE refuels (
                id INTEGER PRIMARY KEY,
                at_utc_ms INTEGER NOT NULL UNIQUE,
                liters REAL NOT NULL CHECK (liters > 0),
                cost_minor INTEGER NOT NULL CHECK (cost_minor >= 0),
                full_tank INTEGER NOT NULL CHECK (full_tank IN (0, 1)),
                odometer_km REAL,
                fuel_type TEXT,
                station TEXT,
                note TEXT
            );
            CREATE TABLE refuel_shares (
                refuel_id INTEGER NOT NULL REFERENCES refuels(id) ON DELETE CASCADE,
                driver_id INTEGER,
                driver_name TEXT,
                fuel_l REAL NOT NULL,
                cost_minor INTEGER NOT NULL
            );
            CREATE TABLE calibrations (
                id INTEGER PRIMARY KEY,
                refuel_id INTEGER REFERENCES refuels(id) ON DELETE SET NULL,
                at_utc_ms INTEGER NOT NULL,
                true_l REAL NOT NULL,
                estimated_l REAL NOT NULL,
                scale_after REAL NOT NULL
            );
            CREATE TABLE events (
                id INTEGER PRIMARY KEY,
                t_utc_ms INTEGER,
                kind TEXT NOT NULL,
                detail TEXT NOT NULL
            );
            CREATE TABLE runs (
                id INTEGER PRIMARY KEY,
                started_note TEXT
            );
            """),
            // Calibration needs the uncalibrated model litres of each period: record the scale
        // in force when fuel was estimated, and what calibration made of each period.
        Migration("2026-11-21-calibration-detail", """
            ALTER TABLE sessions ADD COLUMN fuel_scale REAL NOT NULL DEFAULT 1.0;
            ALTER TABLE untracked_driving ADD COLUMN fuel_scale REAL NOT NULL DEFAULT 1.0;
            ALTER TABLE calibrations ADD COLUMN distance_m REAL NOT NULL DEFAULT 0;
            ALTER TABLE calibrations ADD COLUMN ratio REAL;
            ALTER TABLE calibrations ADD COLUMN outcome TEXT NOT NULL DEFAULT 'accepted';
            """),
        // The rolling store (StoreSchema+RollingStore.swift): compact track chunks, then incremental vacuum.
        trackChunks,
        incrementalVacuum,
        // The fuel log (StoreSchema+RefuelLog.swift).
        refuelLog,
        // Removable drivers and driver URIs (StoreSchema+Provisioning.swift).
        provisioning,
        pairing,  // the USB pull's pairing secret (StoreSchema+Pairing.swift)
        continuity,  // resumed sessions and untracked candidates (StoreSchema+Continuity.swift)
        familyBook,  // bills' policy and settlement, assigned trips, the vehicle's uid (StoreSchema+FamilyBook.swift)
        outbox,  // the MQTT uplink's outbox (StoreSchema+Outbox.swift)
        losses,  // what a full disk cost, per kind (StoreSchema+Losses.swift)
        outboxRevisions,  // each record's published revision (StoreSchema+OutboxRevisions.swift)
        tripCheckpoints,  // what a trip that went on had measured when it moved off (StoreSchema+Continuity.swift)
        vehicleTimeZone,  // the family's time zone for what is shown (StoreSchema+TimeZone.swift)
        stableIDs,  // trip, refuel and untracked ids never given again (StoreSchema+StableIDs.swift)
        runCaptures,  // the capture a replay read (StoreSchema+RunCaptures.swift)
        ukUnits,  // the vehicle's units may be `uk`: imperial gallons (StoreSchema+UKUnits.swift)
        firstFillBill,  // the first bill charges estimates; baseline marks; each bill's rule (StoreSchema+FirstFillBill.swift)
        fleetCommands,  // commands applied from the hub, each record's last message (StoreSchema+FleetCommands.swift)
        webUsers,  // who may log in to the family's web app (StoreSchema+WebUsers.swift)
        consumptionFits,  // what the car learns of its drivers from full tanks (StoreSchema+ConsumptionFits.swift)
    ]
}
