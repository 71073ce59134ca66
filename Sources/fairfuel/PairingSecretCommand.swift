import ArgumentParser
import FairFuelPull
import FairFuelStore

#if canImport(Glibc)
import Glibc
#endif

/// `fairfuel provision pairing-secret`: the secret a laptop needs for `fairfuel pull`.
struct PairingSecretCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pairing-secret",
        abstract: "Generate the USB pull's pairing secret (shown once), or say whether one is set.",
        discussion: """
            --generate makes a new random secret, stores it and prints it once: write it down or save
            it to a file for `fairfuel pull --secret-file`. Laptops paired with an older secret must
            learn the new one. Without --generate, only says whether a secret is set.
            """)

    @Flag(help: "Generate a new secret (replacing any old one) and show it once.")
    var generate = false
    @OptionGroup var store: StoreOptions

    func run() throws {
        let db = try store.open()
        if !generate {
            let isSet = (try? db.pairingSecretHex()) != nil
            print(isSet ? "a pairing secret is set (it is shown only when generated)" : "no pairing secret yet: run with --generate")
            return
        }
        let secret = PairingSecret.generate()
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        do {
            try db.setPairingSecret(hex: secret.hex, createdUTCMs: Int64(now.tv_sec) * 1_000)
        } catch {
            throw UserFacingError("cannot store the pairing secret: \(error)")
        }
        print(secret.display)
    }
}
