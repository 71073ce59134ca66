import FairFuelConfiguration
import FairFuelEdges

extension TOMLProfile {
    /// Reads the profile at `path`; every error names the path.
    public static func load(path: String) throws(ProfileError) -> Self {
        // One byte past the parser's limit, so that a larger file is refused as such, not cut.
        switch TextFileReader.readAll(path: path, maximumBytes: TOMLParser.maximumDocumentBytes + 1) {
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
