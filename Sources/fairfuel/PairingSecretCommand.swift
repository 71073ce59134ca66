import ArgumentParser
import FairFuelEdges
import FairFuelPull
import FairFuelStore

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
        let db = try store.open(creating: generate)
        if !generate {
            let isSet = (try? db.pairingSecretHex()) != nil
            print(isSet ? "a pairing secret is set (it is shown only when generated)" : "no pairing secret yet: run with --generate")
            return
        }
        let secret = PairingSecret.generate()
        // To the whole second, as the secret's date has always been stored.
        let createdUTCMs = WallClock.utcMilliseconds() / 1_000 * 1_000
        do {
            try db.setPairingSecret(hex: secret.hex, createdUTCMs: createdUTCMs)
        } catch {
            throw UserFacingError("cannot store the pairing secret: \(error)")
        }
        print(secret.display)
        store.control.tellService()
    }
}
