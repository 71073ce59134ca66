import FairFuelEdges
import Foundation
import Testing

/// The control socket: immediate answers, deferred answers, and clients that hang up while waiting.
@Suite struct ControlSocketServerTests {
    static func socketPath() -> String {
        // sun_path holds 108 bytes: keep it short.
        "/tmp/ff-ctl-\(UUID().uuidString.prefix(8)).sock"
    }

    /// Services the server until `done` holds or `seconds` pass.
    static func pump(_ server: ControlSocketServer, seconds: Double, handle: (String) -> String, until done: () -> Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var now: Int64 = 0
        while Date() < deadline && !done() {
            server.service(nowMs: now, handle: handle)
            now += 10
            usleep(10_000)
        }
    }

    final class Answer: @unchecked Sendable {
        private let lock = NSLock()
        private var value: String??
        var result: String?? { lock.lock(); defer { lock.unlock() }; return value }
        func set(_ text: String?) { lock.lock(); value = .some(text); lock.unlock() }
    }

    static func askInBackground(_ path: String, _ request: String, timeoutMs: Int32 = 5_000) -> Answer {
        let answer = Answer()
        Thread { answer.set(ControlSocketClient.ask(path: path, request: request, timeoutMs: timeoutMs)) }.start()
        return answer
    }

    @Test func answersNowAndLater() throws {
        let path = Self.socketPath()
        let server = try ControlSocketServer(path: path)
        var tickets: [ControlTicket] = []
        let handle: (String) -> String = { request in
            if request == "wait" {
                tickets.append(server.currentTicket)
                return ControlSocketServer.deferred
            }
            return "ok: \(request)\n"
        }
        let later = Self.askInBackground(path, "wait")
        Self.pump(server, seconds: 5, handle: handle) { !tickets.isEmpty }
        #expect(server.deferredCount == 1)
        // Other requests are answered while one waits.
        let now = Self.askInBackground(path, "status")
        Self.pump(server, seconds: 5, handle: handle) { now.result != nil }
        #expect(now.result == .some("ok: status\n"))
        #expect(later.result == nil)
        #expect(server.complete(tickets[0], with: "ok: done\n"))
        Self.pump(server, seconds: 5, handle: handle) { later.result != nil }
        #expect(later.result == .some("ok: done\n"))
        #expect(server.deferredCount == 0)
        #expect(server.complete(tickets[0], with: "again\n") == false)
        #expect(server.takeHungUp().isEmpty)
    }

    @Test func aClientThatGivesUpIsReported() throws {
        let path = Self.socketPath()
        let server = try ControlSocketServer(path: path)
        var tickets: [ControlTicket] = []
        let handle: (String) -> String = { _ in
            tickets.append(server.currentTicket)
            return ControlSocketServer.deferred
        }
        let gaveUp = Self.askInBackground(path, "wait", timeoutMs: 300)
        var hungUp: [ControlTicket] = []
        Self.pump(server, seconds: 5, handle: handle) {
            hungUp += server.takeHungUp()
            return !hungUp.isEmpty
        }
        #expect(hungUp == tickets)
        #expect(gaveUp.result == .some(""))
        #expect(server.deferredCount == 0)
        #expect(server.complete(tickets[0], with: "too late\n") == false)
    }
}
