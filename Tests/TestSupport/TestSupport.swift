import FairFuelCore

/// A small deterministic generator (SplitMix64) so that every random test replays exactly.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}

/// Ways of cutting a byte stream into chunks, for decoder tests.
public enum Chunking: Sendable, CustomStringConvertible {
    case whole
    case byteByByte
    case random(seed: UInt64, maximum: Int)

    public static let all: [Chunking] = [
        .whole, .byteByByte, .random(seed: 1, maximum: 7), .random(seed: 2, maximum: 300),
        .random(seed: 3, maximum: 4096),
    ]

    public var description: String {
        switch self {
        case .whole: "whole"
        case .byteByByte: "byte by byte"
        case let .random(seed, maximum): "random chunks (seed \(seed), up to \(maximum))"
        }
    }

    /// `bytes` cut into chunks.
    public func chunks(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        switch self {
        case .whole:
            return [bytes[...]]
        case .byteByByte:
            return bytes.indices.map { bytes[$0..<$0 + 1] }
        case let .random(seed, maximum):
            var generator = SeededGenerator(seed: seed)
            var out: [ArraySlice<UInt8>] = []
            var start = 0
            while start < bytes.count {
                let length = Int.random(in: 1...maximum, using: &generator)
                let end = min(bytes.count, start + length)
                out.append(bytes[start..<end])
                start = end
            }
            return out
        }
    }
}

/// The package root, found from this file's path (for reading `../shared` and fixtures).
public enum PackagePaths {
    public static var root: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/TestSupport/TestSupport.swift
        return parts.joined(separator: "/")
    }

    /// `../shared` beside the package root; absent in a user's clone.
    public static var shared: String { root + "/../shared" }
}
