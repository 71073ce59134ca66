import Testing

@testable import FairFuelEdges

/// `SharedLibrary`: the first soname that loads, its functions by name, and clear errors.
@Suite struct SharedLibraryTests {
    private typealias VersionFunction = @convention(c) () -> UnsafePointer<CChar>?

    private enum LoadFailure: Error, Equatable {
        case missing(String)
    }

    @Test func theFirstSonameThatLoadsIsBoundAndItsFunctionsRun() throws {
        // libsqlite3 is on every machine that builds FairFuel (libsqlite3-dev).
        let loaded = SharedLibrary.load(["libfairfuel-does-not-exist.so.9", "libsqlite3.so.0"], missing: LoadFailure.missing) {
            library throws(LoadFailure) -> VersionFunction in
            guard let version = library.function("sqlite3_libversion", VersionFunction.self) else { throw .missing("sqlite3_libversion") }
            return version
        }
        let version = try loaded.get()
        #expect(String(cString: try #require(version())).hasPrefix("3."))
    }

    @Test func aMissingLibrarySaysWhichAndWhy() {
        let loaded = SharedLibrary.load(["libfairfuel-does-not-exist.so.9"], missing: LoadFailure.missing) {
            _ throws(LoadFailure) in 0
        }
        guard case let .failure(.missing(reason)) = loaded else {
            Issue.record("loaded a library that does not exist")
            return
        }
        #expect(reason.contains("libfairfuel-does-not-exist.so.9"))
    }

    @Test func aMissingFunctionIsTheBindersError() {
        let loaded = SharedLibrary.load(["libsqlite3.so.0"], missing: LoadFailure.missing) {
            library throws(LoadFailure) -> VersionFunction in
            guard let function = library.function("sqlite3_no_such_function", VersionFunction.self) else {
                throw .missing("sqlite3_no_such_function")
            }
            return function
        }
        #expect(throws: LoadFailure.missing("sqlite3_no_such_function")) { try loaded.get() }
    }
}
