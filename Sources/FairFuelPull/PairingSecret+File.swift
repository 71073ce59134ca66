import FairFuelEdges

extension PairingSecret {
    /// A secret file that cannot be read or holds no secret.
    public struct FileProblem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The secret in `path`, as `fairfuel provision pairing-secret --generate` printed it (32 hex
    /// digits, dashes allowed): `pull --secret-file`, `hub command --secret-file` and the hub's web app's `--secrets DIR`.
    public static func load(file path: String) throws(FileProblem) -> PairingSecret {
        let text: String
        switch TextFileReader.readAll(path: path, maximumBytes: 4_096) {
        case let .success(bytes): text = String(decoding: bytes, as: UTF8.self)
        case let .failure(error): throw FileProblem(description: "cannot read the secret file \(path): \(error)")
        }
        guard let secret = PairingSecret(parsing: text) else {
            throw FileProblem(description: "\(path): a pairing secret is 32 hex digits (dashes allowed), as `fairfuel provision pairing-secret --generate` showed it")
        }
        return secret
    }
}
