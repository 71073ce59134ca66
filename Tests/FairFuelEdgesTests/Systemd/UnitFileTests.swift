import Foundation
import Testing

@Suite struct UnitFileTests {
    static let path = ScriptRunner.root + "/systemd/fairfuel.service"
    static let systemdAnalyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The unit as sections of `Key=Value` pairs, in file order; throws on a line that is neither.
    static func parse(_ text: String) throws -> [String: [(key: String, value: String)]] {
        var sections: [String: [(key: String, value: String)]] = [:]
        var current: String?
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else { throw UnitError("line \(number + 1): bad section header \(line)") }
                current = String(line.dropFirst().dropLast())
                guard sections[current!] == nil else { throw UnitError("line \(number + 1): section \(line) repeated") }
                sections[current!] = []
                continue
            }
            guard let section = current else { throw UnitError("line \(number + 1): a directive before any section") }
            guard !line.hasSuffix("\\") else { throw UnitError("line \(number + 1): continuation lines are not used here") }
            guard let equals = line.firstIndex(of: "=") else { throw UnitError("line \(number + 1): no '=' in \(line)") }
            let key = String(line[..<equals])
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber }) else { throw UnitError("line \(number + 1): bad key \(key)") }
            sections[section]!.append((key, String(line[line.index(after: equals)...])))
        }
        return sections
    }

    struct UnitError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func values(_ key: String, in entries: [(key: String, value: String)]?) -> [String] {
        (entries ?? []).filter { $0.key == key }.map(\.value)
    }

    @Test func parsesAsINIWithTheRequiredHardening() throws {
        let sections = try Self.parse(String(contentsOfFile: Self.path, encoding: .utf8))
        #expect(Set(sections.keys) == ["Unit", "Service", "Install"])
        let service = sections["Service"]
        let required: [(String, String)] = [
            ("Type", "notify"), ("User", "fairfuel"), ("Group", "fairfuel"), ("SupplementaryGroups", "dialout"),
            ("ExecStart", "/usr/sbin/fairfueld"),
            ("WatchdogSec", "30"), ("Restart", "always"), ("RestartSec", "2"), ("TimeoutStopSec", "5"),
            ("StateDirectory", "fairfuel"), ("RuntimeDirectory", "fairfuel"),
            ("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("PrivateTmp", "yes"), ("NoNewPrivileges", "yes"),
            ("ProtectKernelTunables", "yes"), ("ProtectKernelModules", "yes"), ("ProtectKernelLogs", "yes"),
            ("ProtectControlGroups", "yes"), ("LockPersonality", "yes"), ("MemoryDenyWriteExecute", "yes"),
            ("RestrictNamespaces", "yes"), ("RestrictRealtime", "yes"), ("RestrictSUIDSGID", "yes"),
            ("DevicePolicy", "closed"), ("CapabilityBoundingSet", ""), ("SystemCallArchitectures", "native"),
            ("RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6"), ("MemoryMax", "64M"),
        ]
        for (key, value) in required {
            #expect(Self.values(key, in: service) == [value], "\(key)")
        }
        #expect(Self.values("SystemCallFilter", in: service).contains("@system-service"))
        #expect(Self.values("CPUQuota", in: service).count == 1)
        let devices = Self.values("DeviceAllow", in: service)
        #expect(devices.contains("char-ttyACM rw") && devices.contains("char-ttyGS rw"))
        #expect(Self.values("WantedBy", in: sections["Install"]) == ["multi-user.target"])
        #expect(Self.values("StartLimitIntervalSec", in: sections["Unit"]) == ["0"])
    }

    /// The uplink reaches the broker its board profile names (a LAN or a cloud host, not only the
    /// loopback), and its password comes as docs/mqtt.md says: `LoadCredential=mqtt:...`, with an
    /// empty fallback so that a car without the file still starts.
    @Test func letsTheUplinkReachItsBrokerWithItsCredentials() throws {
        let service = try Self.parse(String(contentsOfFile: Self.path, encoding: .utf8))["Service"]
        #expect(Self.values("IPAddressDeny", in: service).isEmpty, "a broker off the loopback would be unreachable")
        #expect(Self.values("PrivateNetwork", in: service).isEmpty)
        #expect(Self.values("LoadCredential", in: service) == ["mqtt:/etc/fairfuel/mqtt.credentials"])
        #expect(Self.values("SetCredential", in: service) == ["mqtt:no /etc/fairfuel/mqtt.credentials"])
        let guide = try String(contentsOfFile: ScriptRunner.root + "/docs/mqtt.md", encoding: .utf8)
        #expect(guide.contains("LoadCredential=mqtt:/etc/fairfuel/mqtt.credentials"))
        #expect(guide.contains("credentials = \"mqtt\""))
    }

    @Test func agreesWithTheDefaultBoardProfile() throws {
        let profile = try String(contentsOfFile: ScriptRunner.root + "/boards/pi-zero-2w.toml", encoding: .utf8)
        let service = try Self.parse(String(contentsOfFile: Self.path, encoding: .utf8))["Service"]
        let watchdog = try #require(Self.values("WatchdogSec", in: service).first)
        #expect(profile.contains("\nwatchdog_seconds = \(watchdog)"))
        // The store under StateDirectory, the control socket under RuntimeDirectory.
        #expect(profile.contains("path = \"/var/lib/fairfuel/"))
        #expect(profile.contains("socket_path = \"/run/fairfuel/"))
    }

    @Test(
        .enabled(if: UnitFileTests.systemdAnalyze != nil, "systemd-analyze is not installed: the unit is not verified by systemd"))
    func systemdAnalyzeVerifiesIt() throws {
        // verify insists that ExecStart exists: point it at a stand-in executable.
        let directory = NSTemporaryDirectory() + "fairfuel-unit-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: directory + "/fairfueld")
        let unit = try String(contentsOfFile: Self.path, encoding: .utf8)
            .replacingOccurrences(of: "ExecStart=/usr/sbin/fairfueld", with: "ExecStart=\(directory)/fairfueld")
        try unit.write(toFile: directory + "/fairfuel.service", atomically: true, encoding: .utf8)
        // --man=no: the Documentation= man pages come with the package, not with this checkout.
        let result = try ScriptRunner.run(Self.systemdAnalyze!, ["verify", "--man=no", directory + "/fairfuel.service"])
        #expect(result.status == 0, "systemd-analyze verify: \(result.output)")
        #expect(!result.output.contains("fairfuel.service:"), "\(result.output)")
    }
}
