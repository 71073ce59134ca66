#if canImport(Glibc)
import Glibc
#endif

/// The process's file mode creation mask (umask(2)): the permission bits every file and directory it creates goes without.
public enum FileCreationMask {
    /// Sets the mask to `mask` (e.g. 0o027: nothing for others, no writing for the group); the previous mask.
    @discardableResult
    public static func set(_ mask: UInt32) -> UInt32 {
        UInt32(umask(mode_t(mask)))
    }
}
