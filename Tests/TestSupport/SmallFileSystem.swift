import Foundation

/// A small tmpfs mounted on a fresh directory, for full-disk tests. Mounting needs root (CI runs
/// as root); `isAvailable` says whether it works here, so tests skip with a message otherwise.
public final class SmallFileSystem {
    public let directory: String
    private var fillers = 0

    /// Whether a tmpfs can be mounted here (root, and `mount` allowed).
    public static let isAvailable: Bool = {
        guard getuid() == 0 else { return false }
        guard let probe = try? SmallFileSystem(megabytes: 1) else { return false }
        probe.unmount()
        return true
    }()

    public struct MountError: Error {}

    public init(megabytes: Int) throws {
        TestTier.require(.integration, for: "a tmpfs mount")
        directory = NSTemporaryDirectory() + "fairfuel-small-fs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0755", "tmpfs", directory]) else {
            try? FileManager.default.removeItem(atPath: directory)
            throw MountError()
        }
    }

    deinit { unmount() }

    public func unmount() {
        guard FileManager.default.fileExists(atPath: directory) else { return }
        _ = Self.run("/bin/umount", ["-l", directory])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Fills the file system to its last block with a filler file (as runaway logs would);
    /// returns its path. Deleting it gives the space back.
    @discardableResult
    public func fill() -> String {
        fillers += 1
        let path = directory + "/filler-\(fillers).log"
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        let block = [UInt8](repeating: 0x55, count: 4_096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == 4_096 {}
        let small = [UInt8](repeating: 0x55, count: 1)
        while small.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) == 1 {}
        close(descriptor)
        return path
    }

    /// Remounts the file system read-only, or writable again; false when the kernel refuses (a
    /// read-only remount is refused while a process holds a file there open for writing).
    @discardableResult
    public func remount(readOnly: Bool) -> Bool {
        Self.run("/bin/mount", ["-o", "remount,\(readOnly ? "ro" : "rw")", directory])
    }

    /// Bytes still free.
    public var freeBytes: Int64 {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return 0 }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
