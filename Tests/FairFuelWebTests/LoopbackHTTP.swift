@testable import FairFuelWeb
import Foundation
import Hummingbird

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 exchange over a real TCP connection to 127.0.0.1 (`Connection: close`, the answer read
/// to the end): no redirect followed, no cookie kept, so that the tests see exactly what a browser gets.
enum LoopbackHTTP {
    struct Answer {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// A TCP connection to the app on loopback (the caller closes it).
    static func connected(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(description: "connect to port \(port): errno \(errno)")
        }
        return fd
    }

    /// Sends `bytes` (half a request, or nothing) and waits: the seconds until the app closed the
    /// connection, or nil when it was still open after `giveUpSeconds`.
    static func secondsUntilClosed(port: Int, sending bytes: [UInt8], giveUpSeconds: Int) throws -> Double? {
        let fd = try connected(port: port)
        defer { close(fd) }
        let start = ContinuousClock.now
        if !bytes.isEmpty { _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        var timeout = timeval(tv_sec: giveUpSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if read > 0 { continue }
            // 0: the app closed it; -1 with EAGAIN: the timeout passed with the connection open.
            guard read == 0 || errno == ECONNRESET else { return nil }
            let elapsed = (ContinuousClock.now - start).components
            return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }
    }

    static func exchange(port: Int, method: HTTPRequest.Method, path: String, headers: HTTPFields, body: [UInt8]?) throws -> Answer {
        let fd = try connected(port: port)
        defer { close(fd) }
        var head = "\(method.rawValue) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for field in headers { head += "\(field.name.rawName): \(field.value)\r\n" }
        head += "Content-Length: \(body?.count ?? 0)\r\n\r\n"
        var request = Array(head.utf8) + (body ?? [])
        var sent = 0
        while sent < request.count {
            let wrote = request.withUnsafeMutableBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            // The server may answer (413) and close before the whole body is sent: read what it said.
            guard wrote > 0 else { break }
            sent += wrote
        }
        request.removeAll()
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let read = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if read <= 0 { break }
            answer += buffer[0..<read]
        }
        guard let split = WebForm.find([13, 10, 13, 10], in: answer, from: 0) else {
            throw Failure(description: "no HTTP answer from port \(port) (\(answer.count) bytes)")
        }
        let lines = String(decoding: answer[0..<split], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let code = Int(statusParts[1]) else { throw Failure(description: "bad status line \(lines[0])") }
        var fields = HTTPFields()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPFields.Element.Name(String(line[..<colon])) else { continue }
            fields.append(HTTPFields.Element(name: name, value: line[line.index(after: colon)...].trimmingCharacters()))
        }
        var content = Array(answer[(split + 4)...])
        if let length = fields[.contentLength].flatMap({ Int($0) }), content.count > length { content = Array(content[0..<length]) }
        if fields[.transferEncoding]?.lowercased() == "chunked" { content = dechunked(content) }
        return Answer(status: HTTPResponse.Status(code: code), headers: fields, body: content)
    }

    static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while let lineEnd = WebForm.find([13, 10], in: bytes, from: index),
              let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16), size > 0
        {
            let start = lineEnd + 2
            guard start + size <= bytes.count else { break }
            out += bytes[start..<(start + size)]
            index = start + size + 2
        }
        return out
    }
}

