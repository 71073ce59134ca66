import Foundation

/// The umask is one for the whole test process, whose suites run in parallel: a test that sets it
/// holds `lock` for as long as it relies on the value (and puts the old one back before unlocking).
public enum ProcessUmask {
    public static let lock = NSLock()
}
