import FairFuelEdges
import Foundation
import Testing

@Suite struct SystemdNotifierTests {
    @Test func sendsTheServiceLifecycleToAPathSocket() throws {
        let path = NSTemporaryDirectory() + "fairfuel-notify-\(UUID().uuidString.prefix(8)).sock"
        let listener = try NotifySocketListener(address: path)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(notifier.isEnabled)
        try notifier.ready(status: "MCU link up\nstore ok")
        try notifier.watchdog()
        try notifier.status("2 drivers provisioned")
        try notifier.reloading(monotonicMicroseconds: 123_456)
        try notifier.stopping()
        try notifier.extendTimeout(microseconds: 20_000_000)
        #expect(listener.receive() == "READY=1\nSTATUS=MCU link up store ok")
        #expect(listener.receive() == "WATCHDOG=1")
        #expect(listener.receive() == "STATUS=2 drivers provisioned")
        #expect(listener.receive() == "RELOADING=1\nMONOTONIC_USEC=123456")
        #expect(listener.receive() == "STOPPING=1")
        #expect(listener.receive() == "EXTEND_TIMEOUT_USEC=20000000")
        #expect(listener.receive(timeoutMs: 50) == nil)
    }

    @Test func sendsToAnAbstractSocket() throws {
        let name = "@fairfuel-test-notify-\(getpid())-\(UUID().uuidString.prefix(8))"
        let listener = try NotifySocketListener(address: name)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name])
        try notifier.ready()
        try notifier.watchdog()
        #expect(listener.receive() == "READY=1")
        #expect(listener.receive() == "WATCHDOG=1")
    }

    @Test func isANoOpWithoutNotifySocket() throws {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isEnabled)
        #expect(notifier.watchdogPingIntervalMs == nil)
        try notifier.ready(status: "up")
        try notifier.watchdog()
        try notifier.stopping()
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": ""]).isEnabled)
    }

    @Test func reportsAnUnusableOrAbsentSocket() {
        #expect(throws: SystemdNotifyError.unsupportedAddress("run/notify")) {
            try SystemdNotifier(environment: ["NOTIFY_SOCKET": "run/notify"]).ready()
        }
        let tooLong = "/" + String(repeating: "d", count: 120)
        #expect(throws: SystemdNotifyError.unsupportedAddress(tooLong)) {
            try SystemdNotifier(environment: ["NOTIFY_SOCKET": tooLong]).ready()
        }
        let absent = NSTemporaryDirectory() + "fairfuel-no-such-\(UUID().uuidString).sock"
        #expect(throws: SystemdNotifyError.system(address: absent, operation: "send to", errnoCode: ENOENT)) {
            try SystemdNotifier(environment: ["NOTIFY_SOCKET": absent]).watchdog()
        }
    }

    @Test func watchdogIntervalComesFromWatchdogUSec() {
        let own = getpid()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "30000000"], processID: own)
        #expect(notifier.watchdogTimeoutMicroseconds == 30_000_000)
        #expect(notifier.watchdogPingIntervalMs == 15_000)
        let mine = SystemdNotifier(environment: ["WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "\(own)"], processID: own)
        #expect(mine.watchdogPingIntervalMs == 2_500)
        // WATCHDOG_PID naming another process: the watchdog is not ours to feed.
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "\(own + 1)"], processID: own).watchdogPingIntervalMs == nil)
        for bad in ["", "0", "-5", "30s", "abc", "99999999999999999999999"] {
            #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": bad]).watchdogTimeoutMicroseconds == nil, "\(bad)")
        }
        #expect(SystemdNotifier.watchdogTimeout(microseconds: "1", forProcess: nil, processID: own) == 1)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "1"]).watchdogPingIntervalMs == 1)
    }

    @Test func monotonicClockAdvances() {
        let first = SystemdNotifier.monotonicMicroseconds()
        usleep(2_000)
        #expect(SystemdNotifier.monotonicMicroseconds() >= first + 1_000)
    }
}
