import FairFuelCore
import FairFuelReports
import Foundation
import Testing
import TestSupport

/// The pure writers against golden files.
/// Regenerate with: FAIRFUEL_REGENERATE_GOLDEN=1 swift test --filter ExportWriterTests (then review the diff).
@Suite struct ExportWriterTests {
    static func golden(_ name: String, _ actual: String) throws -> String {
        try Golden.expected(at: ExportSample.fixtures + "/" + name, actual: actual)
    }

    static var gpx: String {
        GPXWriter.document(name: "Trip 1, Alice & <co>, 2026-11-20 08:00 UTC", trip: ExportSample.trips[0], points: ExportSample.track)
    }

    @Test func gpxMatchesItsGoldenFile() throws {
        #expect(Self.gpx == (try Self.golden("trip-1.gpx", Self.gpx)))
        #expect(Self.gpx.contains("Alice &amp; &lt;co&gt;"))
        #expect(Self.gpx.components(separatedBy: "<trkpt ").count - 1 == ExportSample.track.count)
    }

    @Test func gpxIsValidAgainstTheGPX11Schema() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint") else {
            Issue.record("xmllint is missing: install libxml2-utils (scripts/install-deps.sh)")
            return
        }
        let schema = ExportSample.fixtures + "/gpx-1.1-subset.xsd"
        let out = NSTemporaryDirectory() + "fairfuel-\(UUID().uuidString).gpx"
        // A point out of range is dropped, so even a corrupt track gives a valid document.
        var points = ExportSample.track
        points.append(TrackPoint(utcMs: ExportSample.t0 + 9_000, latitude: 91, longitude: 2, speedMetersPerSecond: 0))
        points.append(TrackPoint(utcMs: ExportSample.t0 + 9_500, latitude: 48, longitude: 180, speedMetersPerSecond: 0))
        try GPXWriter.document(name: "x", trip: ExportSample.trips[1], points: points).write(toFile: out, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(try Self.xmllint(schema: schema, file: out) == 0)
        // The check can fail: a latitude out of range is refused by the schema.
        let bad = out + ".bad.gpx"
        try Self.gpx.replacingOccurrences(of: "lat=\"48.856613\"", with: "lat=\"98.5\"").write(toFile: bad, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: bad) }
        #expect(try Self.xmllint(schema: schema, file: bad) != 0)
    }

    static func xmllint(schema: String, file: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        process.arguments = ["--noout", "--nonet", "--schema", schema, file]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func geoJSONMatchesItsGoldenFileAndHasTheRFC7946Shape() throws {
        let text = GeoJSONWriter.document(trip: ExportSample.trips[0], points: ExportSample.track)
        #expect(text == (try Self.golden("trip-1.geojson", text)))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(root["type"] as? String == "FeatureCollection")
        let features = try #require(root["features"] as? [[String: Any]])
        #expect(features.count == 1)
        let feature = features[0]
        #expect(feature["type"] as? String == "Feature")
        let geometry = try #require(feature["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "LineString")
        let coordinates = try #require(geometry["coordinates"] as? [[Double]])
        #expect(coordinates.count == ExportSample.track.count)
        for (position, point) in zip(coordinates, ExportSample.track) {
            #expect(position.count == 2)
            #expect(abs(position[0] - point.longitude) < 1e-7 && abs(position[1] - point.latitude) < 1e-7)  // [lon, lat]
        }
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect((properties["times"] as? [String])?.count == coordinates.count)
        #expect(properties["driver"] as? String == "Alice")
        #expect(properties["distance_km"] as? Double == 18.4)
    }

    @Test func geoJSONOfOneOrNoPointsIsStillAFeatureCollection() throws {
        for points in [[], Array(ExportSample.track.prefix(1))] {
            let text = GeoJSONWriter.document(trip: nil, points: points)
            let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let feature = try #require((root["features"] as? [[String: Any]])?.first)
            if points.isEmpty {
                #expect(feature["geometry"] is NSNull)
            } else {
                #expect((feature["geometry"] as? [String: Any])?["type"] as? String == "Point")
            }
        }
    }

    @Test func csvInMetricAndImperialMatchesGoldenFiles() throws {
        let metric = TripText.csv(ExportSample.trips, units: ExportSample.metric)
        #expect(metric == (try Self.golden("trips-metric.csv", metric)))
        let imperial = TripText.csv(ExportSample.trips, units: ExportSample.imperial)
        #expect(imperial == (try Self.golden("trips-imperial.csv", imperial)))
        #expect(imperial.hasPrefix("id,driver,start_utc,end_utc,end_reason,distance_mi,"))
        // 18.4 km is 11.433 mi.
        #expect(imperial.contains(",11.433,"))
        #expect(metric.split(separator: "\r\n").count == ExportSample.trips.count + 1)
    }

    @Test func csvFieldsAreQuotedAndDefused() {
        #expect(TripText.csvField("Alice") == "Alice")
        #expect(TripText.csvField("Bob, Jr.") == "\"Bob, Jr.\"")
        #expect(TripText.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(TripText.csvField("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(TripText.csvField("-1") == "'-1")
    }

    @Test func tripJSONKeepsTheFieldsOfTheTripsCommand() throws {
        let text = TripText.jsonArray(ExportSample.trips)
        #expect(text == (try Self.golden("trips.json", text + "\n")).dropLast())
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(objects.count == 3)
        for key in ["id", "driver", "start_utc", "end_utc", "end_reason", "distance_km", "duration_s", "idle_s", "harsh_accel",
                    "harsh_brake", "max_speed_kmh", "fuel_l", "moving_s", "stopped_utc", "driver_left_utc"] {
            #expect(objects[0].keys.contains(key), "\(key)")
        }
        #expect(objects[1]["driver"] as? String == "Bob \"the builder\", Jr.")
    }
}
