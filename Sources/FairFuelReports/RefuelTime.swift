import FairFuelCore

/// The rules a typed refuel time meets, for `fairfuel refuel --at`, `refuel edit --at` and the web
/// app's correction alike: a time the car's clock never showed is refused (one that has not come yet is
/// the store's to question: `TripStore.refuseEntryMistakes`, behind the same confirmation as a price).
public enum RefuelTime {
    /// Why a typed time is refused, in words for the person who typed it.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The instant `text` names: an offset or `Z` in the text wins; without one it is the car's wall
    /// clock, and a time that clock skips (the spring change) is refused rather than moved past the gap.
    /// In the autumn overlap, when the hour happens twice, it is the first of the two (`TimeZoneRules.utcMs`).
    public static func instant(_ text: String, units: DisplayUnits) throws(Refusal) -> Int64 {
        let instant: Int64
        let wall: Int64?
        do {
            instant = try ISO8601.parse(text, localIn: units.timeZone).millisecondsSinceEpoch
            wall = try ISO8601.wallClockWithoutOffset(text)
        } catch {
            throw Refusal(description: "\(error)")
        }
        if let wall, let gap = units.timeZone.gap(containingLocalMs: wall) {
            let from = ISO8601.dateMinute(utcMs: gap.fromLocalMs)
            let to = ISO8601.dateMinute(utcMs: gap.toLocalMs)
            // A date alone is its midnight: the offset goes after a time.
            let typed = text.utf8.count == 10 ? text + "T00:00" : text
            throw Refusal(
                description: "\(text) does not exist in \(units.timeZone.name): the clocks jump from \(from) to \(to), "
                    + "so no clock there showed it. Give an explicit offset, e.g. "
                    + "\(typed)\(offsetText(gap.offsetBeforeSeconds)) or \(typed)\(offsetText(gap.offsetAfterSeconds)), "
                    + "or a time outside the gap")
        }
        return instant
    }

    /// `+02:00`, `-03:30`.
    static func offsetText(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        let hours = minutes / 60
        return (seconds < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes % 60 < 10 ? "0" : "") + String(minutes % 60)
    }
}
