/// `fairfueld`'s command line, parsed by hand (the daemon links no argument parser).
public enum DaemonCommandLine: Equatable, Sendable {
    case run(ServiceDaemonOptions)
    case help
    case version
    /// A message for the operator; the daemon exits with `usageExitStatus`.
    case failure(String)

    /// EX_USAGE from sysexits.h: systemd and scripts tell a bad command line from a failed start.
    public static let usageExitStatus: Int32 = 64

    /// Accepts `--name VALUE` and `--name=VALUE`; a repeated option, an empty value or a stray argument is an error.
    public static func parse(_ arguments: [String]) -> DaemonCommandLine {
        var options = ServiceDaemonOptions()
        var seen: Set<String> = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            switch name {
            case "--help", "-h":
                return .help
            case "--version":
                return .version
            case "--verbose":
                if inlineValue != nil { return .failure("--verbose takes no value") }
                options.verbose = true
                continue
            case "--board", "--port", "--control", "--db":
                break
            default:
                if name.hasPrefix("-") { return .failure("unknown option \(name)") }
                return .failure("unexpected argument \(argument)")
            }
            if !seen.insert(name).inserted { return .failure("\(name) given twice") }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                return .failure("\(name) needs a value")
            }
            if value.isEmpty { return .failure("\(name) needs a non-empty value") }
            switch name {
            case "--board": options.boardPath = value
            case "--port": options.port = value
            case "--control": options.controlSocketPath = value
            default: options.storePath = value
            }
        }
        return .run(options)
    }
}
