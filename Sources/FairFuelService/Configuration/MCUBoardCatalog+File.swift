import FairFuelConfiguration

extension MCUBoardCatalog {
    /// Loads each file in `paths` (e.g. every `mcu-*.toml` of a directory).
    public static func load(paths: [String]) throws(ProfileError) -> MCUBoardCatalog {
        var profiles: [MCUBoardProfile] = []
        for path in paths { profiles.append(try MCUBoardProfile.load(path: path)) }
        return try MCUBoardCatalog(profiles)
    }
}
