import ArgumentParser
import FairFuelCore
import FairFuelEdges
import FairFuelLink
import FairFuelService

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode the MCU-to-host frames of a .ffcap capture.",
        discussion: """
            Reads the rx lines (MCU to host) of CAPTURE; tx lines are skipped.
            With --json: one JSON object per delivered frame, then a line with the
            receiver counters ({"stats":{...}}). Without: a table.
            """)

    @Argument(help: "The capture file (.ffcap).")
    var capture: String

    @Flag(help: "Print line-delimited JSON.")
    var json = false

    @Flag(help: "Also print link anomalies (CRC errors, lost frames, ...) as they occur.")
    var anomalies = false

    func run() throws {
        let reading = CaptureReading(path: capture, direction: .rx)
        var printedHeader = json
        func header() {
            if !printedHeader { print(pad("t_ms", 10) + pad("seq", 7) + pad("type", 11) + "details") }
            printedHeader = true
        }
        var counters: LinkCounters
        // Copies of a reliable event (revision 1.1) are listed as the MCU sent them, marked, and
        // counted as the service counts them.
        var events = ReliableEventMemory()
        do {
            counters = try reading.run { timeMs, output in
                switch output {
                case let .frame(frame):
                    header()
                    let isRepeat = !events.admit(frame)
                    if json {
                        print(frame.jsonLine(captureTimeMs: timeMs))
                    } else {
                        print(pad(String(timeMs), 10) + pad(String(frame.seq), 7) + pad(frame.message.jsonName, 11) + frame.summary
                            + (isRepeat ? " (repeat: delivered once)" : ""))
                    }
                case let .duplicate(seq, _):
                    if anomalies {
                        header()
                        printAnomaly(timeMs, "duplicate", "seq \(seq) dropped")
                    }
                case let .anomaly(anomaly):
                    if anomalies {
                        header()
                        printAnomaly(timeMs, anomaly.counterName, anomaly.description)
                    }
                }
            }
        } catch {
            throw UserFacingError(error.description)
        }
        counters.eventRepeat = events.repeats
        if json {
            print("{\"stats\":\(counters.jsonObject)}")
        } else {
            print("")
            print(counters.named.map { "\($0.name) \($0.value)" }.joined(separator: "  "))
        }
    }

    private func printAnomaly(_ timeMs: UInt64, _ counter: String, _ detail: String) {
        if json {
            var line = JSONLine()
            line.add("t_ms", timeMs)
            line.add("anomaly", counter)
            line.add("detail", detail)
            print(line.string)
        } else {
            print(pad(String(timeMs), 10) + pad("-", 7) + pad("!" + counter, 11) + detail)
        }
    }
}

/// `text` left-aligned in a column of `width` characters, controls in it shown as escapes.
func pad(_ text: String, _ width: Int) -> String { TerminalText.padded(text, width) }
