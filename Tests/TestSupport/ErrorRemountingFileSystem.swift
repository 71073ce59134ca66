import Foundation

/// A small ext4 file system in an image file, mounted through a loop device with
/// `errors=remount-ro`: `failWithError()` has the kernel remount it read-only as it does an SD
/// card after errors, even while a process holds files there open for writing (which a plain
/// `mount -o remount,ro` refuses). Needs root, a loop device and ext4; `isAvailable` says so.
public final class ErrorRemountingFileSystem {
    public let directory: String
    private let image: String

    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    public static let isAvailable: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/mkfs.ext4") else { return false }
        guard let probe = try? ErrorRemountingFileSystem(megabytes: 4) else { return false }
        defer { probe.unmount() }
        return probe.errorTrigger != nil
    }()

    public init(megabytes: Int) throws {
        let name = "fairfuel-ext4-\(UUID().uuidString.prefix(8))"
        directory = NSTemporaryDirectory() + name
        image = NSTemporaryDirectory() + name + ".img"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: image, contents: nil),
              let handle = FileHandle(forWritingAtPath: image) else { throw SetupError(description: "cannot create \(image)") }
        try handle.truncate(atOffset: UInt64(megabytes) << 20)
        try handle.close()
        guard SmallFileSystem.run("/usr/sbin/mkfs.ext4", ["-q", "-F", image]), mount() else {
            cleanUp()
            throw SetupError(description: "cannot make and mount an ext4 image at \(directory)")
        }
    }

    deinit { unmount() }

    private func mount() -> Bool {
        SmallFileSystem.run("/bin/mount", ["-o", "loop,errors=remount-ro", image, directory])
    }

    /// `/sys/fs/ext4/loopN/trigger_fs_error` of the mounted file system, nil when not mounted.
    private var errorTrigger: String? {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return nil }
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 2, fields[1] == directory, fields[0].hasPrefix("/dev/") else { continue }
            let trigger = "/sys/fs/ext4/\(fields[0].dropFirst(5))/trigger_fs_error"
            return FileManager.default.fileExists(atPath: trigger) ? trigger : nil
        }
        return nil
    }

    /// Reports an error to ext4, which remounts the file system read-only at once (as
    /// `errors=remount-ro` says); it stays so until unmounted. False when it could not.
    @discardableResult
    public func failWithError() -> Bool {
        guard let trigger = errorTrigger, let handle = FileHandle(forWritingAtPath: trigger) else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("fairfuel test: a failing SD card".utf8))) != nil
    }

    /// Unmounts (nothing may hold a file there), checks and repairs the image as a technician
    /// would (`e2fsck -fy`), and mounts it again, writable. False when any step fails.
    public func repairAndRemount() -> Bool {
        guard SmallFileSystem.run("/bin/umount", [directory]) else { return false }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/sbin/e2fsck")
        check.arguments = ["-f", "-y", image]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        // 0: clean, 1: errors corrected.
        guard check.terminationStatus <= 1 else { return false }
        return mount()
    }

    public func unmount() {
        _ = SmallFileSystem.run("/bin/umount", ["-l", directory])
        cleanUp()
    }

    private func cleanUp() {
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.removeItem(atPath: image)
    }
}
