import FairFuelConfiguration
import FairFuelEdges

extension TOMLProfile {
    /// Reads the profile at `path`; every error names the path.
    public static func load(path: String) throws(ProfileError) -> Self {
        switch TextFileReader.readAll(path: path, maximumBytes: 1 << 20) {
        case let .failure(error):
            throw .file(path: error.path, problem: error.description)
        case let .success(bytes):
            do {
                return try load(bytes: bytes)
            } catch {
                throw .inFile(path: path, error)
            }
        }
    }
}

extension MCUBoardCatalog {
    /// Loads each file in `paths` (e.g. every `mcu-*.toml` of a directory).
    public static func load(paths: [String]) throws(ProfileError) -> MCUBoardCatalog {
        var profiles: [MCUBoardProfile] = []
        for path in paths { profiles.append(try MCUBoardProfile.load(path: path)) }
        return try MCUBoardCatalog(profiles)
    }
}
