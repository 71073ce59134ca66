#if canImport(Glibc)
import Glibc
#endif
import CMosquitto
import FairFuelCore

/// libmosquitto's functions, loaded with dlopen on the first client rather than linked.
///
/// Linking maps and relocates libmosquitto, libssl and libcrypto in every `fairfuel` process:
/// 1.9 MB more resident for a car without an uplink (measured with LD_PRELOAD on `sleep`).
/// Loaded, they cost only the cars that use the uplink, and a dongle without libmosquitto1
/// still runs. The header module (CMosquitto) gives the constants; nothing links against it.
private struct Mosquitto: @unchecked Sendable {
    typealias Handle = OpaquePointer
    typealias ConnectCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32) -> Void
    typealias PublishCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32, Int32, OpaquePointer?) -> Void
    typealias LogCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> Void
    typealias MessageCallback = @convention(c) (Handle?, UnsafeMutableRawPointer?, UnsafePointer<mosquitto_message>?) -> Void

    let libInit: @convention(c) () -> Int32
    let new: @convention(c) (UnsafePointer<CChar>?, Bool, UnsafeMutableRawPointer?) -> Handle?
    let destroy: @convention(c) (Handle?) -> Void
    let reinitialise: @convention(c) (Handle?, UnsafePointer<CChar>?, Bool, UnsafeMutableRawPointer?) -> Int32
    let intOption: @convention(c) (Handle?, Int32, Int32) -> Int32
    let maxInflight: @convention(c) (Handle?, UInt32) -> Int32
    let usernamePassword: @convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let willSet: @convention(c) (Handle?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32
    let tlsSet: @convention(c) (
        Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeRawPointer?
    ) -> Int32
    let connectCallbackSet: @convention(c) (Handle?, ConnectCallback?) -> Void
    let publishCallbackSet: @convention(c) (Handle?, PublishCallback?) -> Void
    let logCallbackSet: @convention(c) (Handle?, LogCallback?) -> Void
    let messageCallbackSet: @convention(c) (Handle?, MessageCallback?) -> Void
    let subscribe: @convention(c) (Handle?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32) -> Int32
    let connectAsync: @convention(c) (Handle?, UnsafePointer<CChar>?, Int32, Int32) -> Int32
    let socket: @convention(c) (Handle?) -> Int32
    let wantWrite: @convention(c) (Handle?) -> Bool
    let loopRead: @convention(c) (Handle?, Int32) -> Int32
    let loopWrite: @convention(c) (Handle?, Int32) -> Int32
    let loopMisc: @convention(c) (Handle?) -> Int32
    let disconnect: @convention(c) (Handle?) -> Int32
    let publish: @convention(c) (Handle?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32
    let strerror: @convention(c) (Int32) -> UnsafePointer<CChar>?

    /// Loaded and initialised once per process (a global is initialised once, thread-safely).
    static let shared: Result<Mosquitto, MQTTClientError> = SharedLibrary.load(
        ["libmosquitto.so.1", "libmosquitto.so"], missing: MQTTClientError.libraryMissing
    ) { loaded throws(MQTTClientError) in
        func symbol<T>(_ name: String, _ type: T.Type) throws(MQTTClientError) -> T {
            guard let function = loaded.function(name, type) else { throw .libraryMissing("\(name) not found") }
            return function
        }
        let library = Mosquitto(
            libInit: try symbol("mosquitto_lib_init", (@convention(c) () -> Int32).self),
            new: try symbol("mosquitto_new", (@convention(c) (UnsafePointer<CChar>?, Bool, UnsafeMutableRawPointer?) -> Handle?).self),
            destroy: try symbol("mosquitto_destroy", (@convention(c) (Handle?) -> Void).self),
            reinitialise: try symbol(
                "mosquitto_reinitialise", (@convention(c) (Handle?, UnsafePointer<CChar>?, Bool, UnsafeMutableRawPointer?) -> Int32).self),
            intOption: try symbol("mosquitto_int_option", (@convention(c) (Handle?, Int32, Int32) -> Int32).self),
            maxInflight: try symbol("mosquitto_max_inflight_messages_set", (@convention(c) (Handle?, UInt32) -> Int32).self),
            usernamePassword: try symbol(
                "mosquitto_username_pw_set", (@convention(c) (Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32).self),
            willSet: try symbol(
                "mosquitto_will_set", (@convention(c) (Handle?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32).self),
            tlsSet: try symbol(
                "mosquitto_tls_set",
                (@convention(c) (
                    Handle?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeRawPointer?
                ) -> Int32).self),
            connectCallbackSet: try symbol("mosquitto_connect_callback_set", (@convention(c) (Handle?, ConnectCallback?) -> Void).self),
            publishCallbackSet: try symbol("mosquitto_publish_v5_callback_set", (@convention(c) (Handle?, PublishCallback?) -> Void).self),
            logCallbackSet: try symbol("mosquitto_log_callback_set", (@convention(c) (Handle?, LogCallback?) -> Void).self),
            messageCallbackSet: try symbol("mosquitto_message_callback_set", (@convention(c) (Handle?, MessageCallback?) -> Void).self),
            subscribe: try symbol(
                "mosquitto_subscribe", (@convention(c) (Handle?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32) -> Int32).self),
            connectAsync: try symbol("mosquitto_connect_async", (@convention(c) (Handle?, UnsafePointer<CChar>?, Int32, Int32) -> Int32).self),
            socket: try symbol("mosquitto_socket", (@convention(c) (Handle?) -> Int32).self),
            wantWrite: try symbol("mosquitto_want_write", (@convention(c) (Handle?) -> Bool).self),
            loopRead: try symbol("mosquitto_loop_read", (@convention(c) (Handle?, Int32) -> Int32).self),
            loopWrite: try symbol("mosquitto_loop_write", (@convention(c) (Handle?, Int32) -> Int32).self),
            loopMisc: try symbol("mosquitto_loop_misc", (@convention(c) (Handle?) -> Int32).self),
            disconnect: try symbol("mosquitto_disconnect", (@convention(c) (Handle?) -> Int32).self),
            publish: try symbol(
                "mosquitto_publish",
                (@convention(c) (Handle?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32)
                    .self),
            strerror: try symbol("mosquitto_strerror", (@convention(c) (Int32) -> UnsafePointer<CChar>?).self))
        let code = library.libInit()
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw .libraryMissing("mosquitto_lib_init failed (\(code))") }
        return library
    }

    func message(_ code: Int32) -> String { strerror(code).map { String(cString: $0) } ?? "error \(code)" }
}

/// An MQTT client over libmosquitto, driven by its owner's poll loop: no thread, no timer of its own.
///
/// The owner polls `descriptor` for reading (and for writing while `wantsWrite`), then calls
/// `service(readable:writable:nowMs:)`, and calls it again by `nextServiceMs(nowMs:)` at the
/// latest (keep-alive pings, reconnect attempts). Only QoS 1 is published: `publish` returns
/// the message id and `Handlers.acknowledged` reports its PUBACK.
///
/// Message ids belong to one connection: when it drops, every message without a PUBACK is
/// abandoned (`Handlers.disconnected`) and is the caller's to send again, in order, after
/// `Handlers.connected`. Each attempt starts from a reinitialised handle, so libmosquitto never
/// resends on its own behind the caller's back.
///
/// The host name is resolved synchronously by libmosquitto when an attempt starts; the TCP
/// connect and the TLS handshake proceed without blocking.
public final class MQTTClient {
    /// What the owner hears, always from inside `service` or `publish`; a handler may publish
    /// but must not call `stop()`.
    public struct Handlers {
        /// The broker accepted the connection (CONNACK 0).
        public var connected: () -> Void
        /// A PUBACK: the message id and the broker's reason code (0 unless MQTT 5 refused it, then >= 0x80).
        public var acknowledged: (_ messageID: Int32, _ reasonCode: Int32) -> Void
        /// The connection ended or an attempt failed; `abandoned` messages had no PUBACK.
        public var disconnected: (_ error: MQTTClientError, _ abandoned: Int) -> Void
        /// A message on a subscribed topic. libmosquitto has already queued the PUBACK of a QoS 1
        /// message when this runs: what the handler keeps, it keeps at most once across a crash.
        public var received: (_ topic: String, _ payload: [UInt8], _ retained: Bool) -> Void

        public init(
            connected: @escaping () -> Void = {},
            acknowledged: @escaping (_ messageID: Int32, _ reasonCode: Int32) -> Void = { _, _ in },
            disconnected: @escaping (_ error: MQTTClientError, _ abandoned: Int) -> Void = { _, _ in },
            received: @escaping (_ topic: String, _ payload: [UInt8], _ retained: Bool) -> Void = { _, _, _ in }
        ) {
            self.connected = connected
            self.acknowledged = acknowledged
            self.disconnected = disconnected
            self.received = received
        }
    }

    public enum State: Sendable, Equatable {
        /// Before `start` and after `stop`.
        case stopped
        /// TCP, TLS and CONNECT under way since `sinceMs`.
        case connecting(sinceMs: Int64)
        case connected
        /// The next attempt is due at `retryAtMs`.
        case waiting(retryAtMs: Int64)
    }

    public struct Counters: Sendable, Equatable {
        public var attempts: UInt64 = 0
        public var connects: UInt64 = 0
        public var disconnects: UInt64 = 0
        public var published: UInt64 = 0
        public var acknowledged: UInt64 = 0
        public var rejected: UInt64 = 0
    }

    public let configuration: MQTTClientConfiguration
    public private(set) var state: State = .stopped
    /// Why the last attempt or connection ended; nil once connected.
    public private(set) var lastError: MQTTClientError?
    public private(set) var counters = Counters()
    /// Messages published on this connection and not yet acknowledged.
    public private(set) var inflight = 0
    /// Failed attempts since the last CONNACK: the backoff's exponent.
    public private(set) var failures = 0

    private let library: Mosquitto
    private let handle: OpaquePointer
    private var handlers: Handlers
    /// A refusal read from CONNACK, kept until libmosquitto reports the connection closed.
    private var refusal: MQTTClientError?
    /// What libmosquitto logged about TLS during this attempt (OpenSSL's reasons): its loop
    /// functions only return "A TLS error occurred" or errno EPROTO.
    private var tlsReasons: [String] = []

    /// Checks the certificate files and makes the handle; connects only on `start`.
    public init(configuration: MQTTClientConfiguration, handlers: Handlers = Handlers()) throws(MQTTClientError) {
        try Self.checkReadable(configuration.tls)
        let library = try Mosquitto.shared.get()
        guard let handle = library.new(configuration.clientID, configuration.cleanSession, nil) else {
            throw .library(operation: "new", code: errno, message: String(cString: strerror(errno)))
        }
        self.library = library
        self.handle = handle
        self.configuration = configuration
        self.handlers = handlers
    }

    deinit { library.destroy(handle) }

    public func setHandlers(_ handlers: Handlers) { self.handlers = handlers }

    // MARK: Poll loop

    /// The socket to poll, while there is one.
    public var descriptor: Int32? {
        let socket = library.socket(handle)
        return socket >= 0 ? socket : nil
    }

    /// Whether the poll should wait for `descriptor` to be writable too (queued packets, TLS handshake).
    public var wantsWrite: Bool { descriptor != nil && library.wantWrite(handle) }

    /// The latest time `service` must be called even if the descriptor stays quiet.
    public func nextServiceMs(nowMs: Int64) -> Int64? {
        switch state {
        case .stopped: nil
        case let .waiting(retryAtMs): retryAtMs
        case let .connecting(sinceMs): min(sinceMs + configuration.connectTimeoutMs, nowMs + 250)
        // libmosquitto pings once keepAliveSeconds pass without traffic: a quarter of it is soon enough.
        case .connected: nowMs + max(250, Int64(configuration.keepAliveSeconds) * 250)
        }
    }

    /// Starts connecting at `nowMs` (through `service`).
    public func start(nowMs: Int64) {
        guard state == .stopped else { return }
        failures = 0
        state = .waiting(retryAtMs: nowMs)
        service(readable: false, writable: false, nowMs: nowMs)
    }

    /// Sends DISCONNECT when connected (the broker then drops the last will) and stays stopped.
    public func stop() {
        if state == .connected {
            library.disconnect(handle)
            _ = library.loopWrite(handle, 1)
        }
        _ = library.reinitialise(handle, configuration.clientID, configuration.cleanSession, nil)
        inflight = 0
        state = .stopped
    }

    /// Reads, writes and keeps the connection alive as the poll reported; starts a due attempt.
    public func service(readable: Bool, writable: Bool, nowMs: Int64) {
        switch state {
        case .stopped:
            return
        case let .waiting(retryAtMs):
            if nowMs >= retryAtMs { attempt(nowMs: nowMs) }
            return
        case .connecting, .connected:
            break
        }
        var code = MOSQ_ERR_SUCCESS.rawValue
        if readable { code = library.loopRead(handle, 1) }
        if code == MOSQ_ERR_SUCCESS.rawValue, writable, descriptor != nil { code = library.loopWrite(handle, 1) }
        if code == MOSQ_ERR_SUCCESS.rawValue, descriptor != nil { code = library.loopMisc(handle) }
        if code != MOSQ_ERR_SUCCESS.rawValue || descriptor == nil {
            ended(code: code, savedErrno: errno, nowMs: nowMs)
            return
        }
        if case let .connecting(sinceMs) = state, nowMs - sinceMs >= configuration.connectTimeoutMs {
            ended(
                error: .unreachable(host: configuration.host, port: configuration.port, errnoCode: ETIMEDOUT),
                nowMs: nowMs)
        }
    }

    // MARK: Publishing

    /// Publishes `payload` with QoS 1 and returns its message id; the PUBACK comes through `Handlers.acknowledged`.
    public func publish(topic: String, payload: UnsafeRawBufferPointer, retained: Bool) throws(MQTTClientError) -> Int32 {
        guard state == .connected else { throw .notConnected }
        var messageID: Int32 = 0
        let code = library.publish(handle, &messageID, topic, Int32(payload.count), payload.baseAddress, 1, retained)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            if code == MOSQ_ERR_NO_CONN.rawValue || code == MOSQ_ERR_CONN_LOST.rawValue { throw .notConnected }
            throw libraryError("publish", code)
        }
        inflight += 1
        counters.published += 1
        return messageID
    }

    public func publish(topic: String, payload: [UInt8], retained: Bool) throws(MQTTClientError) -> Int32 {
        let result = payload.withUnsafeBytes { bytes in Result { () throws(MQTTClientError) in try publish(topic: topic, payload: bytes, retained: retained) } }
        return try result.get()
    }

    // MARK: Subscribing

    /// Subscribes to `filter` with QoS 1 on this connection (call it from `Handlers.connected`);
    /// messages come through `Handlers.received`.
    public func subscribe(_ filter: String) throws(MQTTClientError) {
        guard state == .connected else { throw .notConnected }
        let code = library.subscribe(handle, nil, filter, 1)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            if code == MOSQ_ERR_NO_CONN.rawValue || code == MOSQ_ERR_CONN_LOST.rawValue { throw .notConnected }
            throw libraryError("subscribe", code)
        }
    }

    // MARK: Connecting

    private func attempt(nowMs: Int64) {
        counters.attempts += 1
        refusal = nil
        tlsReasons = []
        inflight = 0
        do throws(MQTTClientError) {
            try Self.checkReadable(configuration.tls)
            try configureHandle()
        } catch {
            ended(error: error, nowMs: nowMs)
            return
        }
        errno = 0
        let code = library.connectAsync(handle, configuration.host, Int32(configuration.port), Int32(configuration.keepAliveSeconds))
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            ended(code: code, savedErrno: errno, nowMs: nowMs)
            return
        }
        state = .connecting(sinceMs: nowMs)
    }

    /// A fresh handle with every option: nothing of the previous connection survives.
    private func configureHandle() throws(MQTTClientError) {
        let userData = Unmanaged.passUnretained(self).toOpaque()
        try check("reinitialise", library.reinitialise(handle, configuration.clientID, configuration.cleanSession, userData))
        let version = configuration.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        try check("int_option", library.intOption(handle, Int32(MOSQ_OPT_PROTOCOL_VERSION.rawValue), version))
        try check("max_inflight", library.maxInflight(handle, UInt32(max(1, configuration.maximumInflight))))
        if let credentials = configuration.credentials {
            try check("username_pw_set", library.usernamePassword(handle, credentials.username, credentials.password))
        }
        if let will = configuration.lastWill {
            let code = will.payload.withUnsafeBytes {
                library.willSet(handle, will.topic, Int32($0.count), $0.baseAddress, 1, will.retained)
            }
            try check("will_set", code)
        }
        if let tls = configuration.tls {
            let code = library.tlsSet(handle, tls.caFile, nil, tls.certFile, tls.keyFile, nil)
            if code != MOSQ_ERR_SUCCESS.rawValue { throw .tls("the certificate files were refused (libmosquitto \(code))") }
        }
        // The callbacks find this client through the handle's user data: the handle dies with
        // the client (deinit), and callbacks run only inside this client's own calls.
        library.connectCallbackSet(handle) { _, userData, code in
            guard let userData else { return }
            Unmanaged<MQTTClient>.fromOpaque(userData).takeUnretainedValue().connackReceived(code: code)
        }
        library.publishCallbackSet(handle) { _, userData, messageID, reasonCode, _ in
            guard let userData else { return }
            Unmanaged<MQTTClient>.fromOpaque(userData).takeUnretainedValue().pubackReceived(messageID: messageID, reasonCode: reasonCode)
        }
        library.messageCallbackSet(handle) { _, userData, message in
            guard let userData, let message, let topic = message.pointee.topic else { return }
            let count = Int(max(0, message.pointee.payloadlen))
            let payload = message.pointee.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            Unmanaged<MQTTClient>.fromOpaque(userData).takeUnretainedValue().handlers.received(
                String(cString: topic), payload, message.pointee.retain)
        }
        // Only with TLS: libmosquitto formats every line (a malloc each) once a log callback is set.
        if configuration.tls != nil {
            library.logCallbackSet(handle) { _, userData, level, line in
                guard level == Int32(MOSQ_LOG_ERR), let userData, let line else { return }
                Unmanaged<MQTTClient>.fromOpaque(userData).takeUnretainedValue().errorLogged(String(cString: line))
            }
        }
    }

    /// Keeps the reason of a TLS error libmosquitto logged: `OpenSSL Error[0]: error:0A000086:SSL
    /// routines::certificate verify failed` becomes `certificate verify failed`.
    private func errorLogged(_ line: String) {
        guard tlsReasons.count < 4 else { return }
        var reason = Substring(line)
        if reason.hasPrefix("OpenSSL Error") {
            if let colon = reason.firstIndex(of: ":") { reason = reason[reason.index(after: colon)...] }
            if let routines = reason.firstRange(ofText: "::") { reason = reason[routines.upperBound...] }
        } else if ["certificate", "key file", "TLS", "SSL"].contains(where: { reason.containsText($0) }) {
            if reason.hasPrefix("Error: ") { reason = reason.dropFirst("Error: ".count) }
        } else {
            return
        }
        let text = String(reason.drop { $0 == " " }.reversed().drop { $0 == "." }.reversed())
        if !text.isEmpty && !tlsReasons.contains(text) { tlsReasons.append(text) }
    }

    private func connackReceived(code: Int32) {
        guard code == 0 else {
            refusal = Self.refusal(code: code, version: configuration.protocolVersion)
            return
        }
        state = .connected
        failures = 0
        lastError = nil
        counters.connects += 1
        handlers.connected()
    }

    private func pubackReceived(messageID: Int32, reasonCode: Int32) {
        inflight = max(0, inflight - 1)
        if reasonCode >= 0x80 { counters.rejected += 1 } else { counters.acknowledged += 1 }
        handlers.acknowledged(messageID, reasonCode)
    }

    private func ended(code: Int32, savedErrno: Int32, nowMs: Int64) {
        ended(error: refusal ?? mapError(code: code, savedErrno: savedErrno), nowMs: nowMs)
    }

    private func ended(error: MQTTClientError, nowMs: Int64) {
        if state == .connected { counters.disconnects += 1 }
        // Drops the socket and every queued message: the caller resends from its outbox.
        _ = library.reinitialise(handle, configuration.clientID, configuration.cleanSession, nil)
        let abandoned = inflight
        inflight = 0
        lastError = error
        failures += 1
        let backoff = ReconnectBackoff(
            minimumMs: configuration.backoffMinimumMs, maximumMs: configuration.backoffMaximumMs,
            jitterPercent: configuration.backoffJitterPercent)
        state = .waiting(retryAtMs: nowMs + backoff.delayMs(failures: failures, clientKey: configuration.clientID))
        handlers.disconnected(error, abandoned)
    }

    private func mapError(code: Int32, savedErrno: Int32) -> MQTTClientError {
        // A failed handshake comes back as MOSQ_ERR_TLS, or as MOSQ_ERR_ERRNO with EPROTO or a reset
        // (the broker's alert); what OpenSSL said is the useful part.
        if configuration.tls != nil && code != MOSQ_ERR_SUCCESS.rawValue && state != .connected {
            if !tlsReasons.isEmpty { return .tls(tlsReasons.joined(separator: "; ")) }
            // TLS 1.3: a broker refuses the client certificate after the client's handshake is done;
            // when its reset overtakes its alert, OpenSSL has nothing to say. The cause is the one the
            // last attempt named, if it named one.
            let reset = code == MOSQ_ERR_CONN_LOST.rawValue || (code == MOSQ_ERR_ERRNO.rawValue && [EPROTO, ECONNRESET, EPIPE].contains(savedErrno))
            if reset {
                if failures > 0, case let .tls(previous)? = lastError { return .tls(previous) }
                return .tls("the broker ended the session before CONNACK (errno \(savedErrno)), as it does when it refuses the client certificate")
            }
        }
        switch code {
        case MOSQ_ERR_ERRNO.rawValue, MOSQ_ERR_NO_CONN.rawValue:
            if state == .connected { return .connectionLost(String(cString: strerror(savedErrno))) }
            return .unreachable(host: configuration.host, port: configuration.port, errnoCode: savedErrno == 0 ? ECONNREFUSED : savedErrno)
        case MOSQ_ERR_CONN_LOST.rawValue, MOSQ_ERR_KEEPALIVE.rawValue:
            if case .connecting = state {
                return .unreachable(host: configuration.host, port: configuration.port, errnoCode: ECONNRESET)
            }
            return .connectionLost(library.message(code))
        case MOSQ_ERR_EAI.rawValue, MOSQ_ERR_LOOKUP.rawValue: return .lookupFailed(host: configuration.host)
        case MOSQ_ERR_TLS.rawValue, MOSQ_ERR_TLS_HANDSHAKE.rawValue: return .tls(library.message(code))
        case MOSQ_ERR_SUCCESS.rawValue: return .connectionLost("the broker closed the connection")
        default: return libraryError("loop", code)
        }
    }

    private static func refusal(code: Int32, version: MQTTProtocolVersion) -> MQTTClientError {
        switch (version, code) {
        case (.v311, Int32(CONNACK_REFUSED_BAD_USERNAME_PASSWORD.rawValue)), (.v5, Int32(MQTT_RC_BAD_USERNAME_OR_PASSWORD.rawValue)):
            .badCredentials
        case (.v311, Int32(CONNACK_REFUSED_NOT_AUTHORIZED.rawValue)), (.v5, Int32(MQTT_RC_NOT_AUTHORIZED.rawValue)):
            .notAuthorized
        default:
            .refused(reasonCode: Int(code))
        }
    }

    private func check(_ operation: String, _ code: Int32) throws(MQTTClientError) {
        if code != MOSQ_ERR_SUCCESS.rawValue { throw libraryError(operation, code) }
    }

    private func libraryError(_ operation: String, _ code: Int32) -> MQTTClientError {
        .library(operation: operation, code: code, message: library.message(code))
    }

    private static func checkReadable(_ tls: MQTTTLSFiles?) throws(MQTTClientError) {
        guard let tls else { return }
        for (role, path) in [("CA certificate", tls.caFile), ("client certificate", tls.certFile), ("client key", tls.keyFile)] {
            guard let path else { continue }
            // libmosquitto fopen()s these on the service's loop: a FIFO there would block it for good.
            do { try RegularFile.checkReadable(path) } catch { throw .unreadable(role: role, error) }
        }
    }
}

extension MQTTCredentials {
    /// Reads a user name (first line) and password (second line) from `path`, which only its
    /// owner may read (a systemd `LoadCredential=` file is 0400).
    public static func load(path: String) throws(MQTTClientError) -> MQTTCredentials {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .unreadableFile(role: "credentials file", path: path, errnoCode: errno) }
        guard info.st_mode & 0o077 == 0 else { throw .credentialsFileTooOpen(path: path, mode: UInt32(info.st_mode)) }
        let bytes: [UInt8]
        switch TextFileReader.readAll(path: path, maximumBytes: 4_096) {
        case let .success(read): bytes = read
        case let .failure(error): throw .unreadable(role: "credentials file", error)
        }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        guard lines.count >= 2, !lines[0].isEmpty, !lines[1].isEmpty,
              lines.dropFirst(2).allSatisfy(\.isEmpty),
              let username = String(validating: lines[0], as: UTF8.self),
              let password = String(validating: lines[1], as: UTF8.self)
        else { throw .malformedCredentials(path: path) }
        return MQTTCredentials(username: username, password: password)
    }
}
