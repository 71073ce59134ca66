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
