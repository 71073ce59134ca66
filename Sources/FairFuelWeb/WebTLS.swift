import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL

/// HTTPS for the app itself: the server's certificate chain and private key, as PEM bytes the
/// shell read (the web target reads no file but the store). Cookies are then `Secure`.
public struct WebTLS: Sendable {
    public var certificateChainPEM: [UInt8]
    public var privateKeyPEM: [UInt8]

    public init(certificateChainPEM: [UInt8], privateKeyPEM: [UInt8]) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// The server that speaks TLS 1.2 or 1.3 with this certificate, or a clear error naming what is
    /// wrong with the PEM (checked when the app is made, never at the first connection).
    /// `http`: the plain server it wraps (its idle timeout).
    func serverBuilder(_ http: HTTPServerBuilder = .http1()) throws(WebError) -> HTTPServerBuilder {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMBytes(certificateChainPEM) } catch {
            throw .badRequest("the TLS certificate is not a PEM certificate chain: \(error)")
        }
        guard !chain.isEmpty else { throw .badRequest("the TLS certificate file holds no certificate") }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(bytes: privateKeyPEM, format: .pem) } catch {
            throw .badRequest("the TLS key is not a PEM private key (or it is encrypted): \(error)")
        }
        var tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        tls.minimumTLSVersion = .tlsv12
        do {
            // Checks that the key belongs to the certificate now, not at the first client.
            _ = try NIOSSLContext(configuration: tls)
            return try .tls(http, tlsConfiguration: tls)
        } catch {
            throw .badRequest("the TLS certificate and key do not make a server (does the key belong to the certificate?): \(error)")
        }
    }
}
