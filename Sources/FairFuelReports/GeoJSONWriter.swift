import FairFuelCore
import FairFuelParsers

/// A trip's track as a GeoJSON (RFC 7946) FeatureCollection: one LineString feature with the
/// trip's figures as properties, the point times in `properties.times`.
public enum GeoJSONWriter {
    public static func document(trip: TripRow?, points: [TrackPoint]) -> String {
        let kept = points.filter(GPXWriter.isValid)
        var properties = trip.map { TripText.json($0) } ?? "{}"
        // The trip's own object, plus the times of the coordinates (RFC 7946 has no time member).
        properties.removeLast()
        if properties != "{" { properties += "," }
        properties += "\"times\":" + JSONLine.array(kept.map { "\"\(UTCTimestamp(millisecondsSinceEpoch: $0.utcMs).iso8601)\"" })
        properties += ",\"speeds_mps\":" + JSONLine.array(kept.map { JSONLine.formatFixed($0.speedMetersPerSecond, decimals: 2) })
        properties += "}"
        // RFC 7946: positions are [longitude, latitude]; a LineString needs two or more.
        let coordinates = JSONLine.array(kept.map {
            "[" + JSONLine.formatFixed($0.longitude, decimals: 7) + "," + JSONLine.formatFixed($0.latitude, decimals: 7) + "]"
        })
        let geometry = kept.count >= 2
            ? "{\"type\":\"LineString\",\"coordinates\":\(coordinates)}"
            : kept.count == 1 ? "{\"type\":\"Point\",\"coordinates\":\(coordinates.dropFirst().dropLast())}" : "null"
        let feature = "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":\(properties)}"
        return "{\"type\":\"FeatureCollection\",\"features\":[\(feature)]}\n"
    }
}
