import ArgumentParser
import FairFuelPull
import FairFuelReports
import FairFuelService
import FairFuelStore

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a month's self-contained HTML report: cost per driver, consumption trend, trips (no network, no script).",
        discussion: """
            With DIR... (pull or hub directories, as `fairfuel family` takes them): one page for the family, its \
            totals per person across cars, then a section per car.
            """)

    @Argument(help: "Pull directories, one per car, or hub directories; none: the store.")
    var directories: [String] = []
    @Option(help: "The HTML file to write.")
    var html: String
    @Option(help: "A calendar month, YYYY-MM, in the vehicle's time zone; default: the month of the latest trip or refuel.")
    var month: String?
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if !directories.isEmpty, store.path != nil { throw ValidationError("give pull directories or --db, not both") }
    }

    func run() throws {
        if !directories.isEmpty {
            let books = try loadFamilyBooks(directories, command: "report")
            let month = try parseMonth(self.month) ?? books.latestMonth
            let report = books.reportHTML(month)
            try writeOutput(report.page, to: html)
            print("report for \(month?.description ?? "all time") written to \(html): \(books.cars.count) car(s), "
                + "\(report.summary.drivers.count) driver(s), \(report.trips) trip(s)")
            return
        }
        let data = try FamilyData(try store.openReadOnly())
        let month = try parseMonth(self.month) ?? data.latestMonth
        let (page, summary, trips) = data.report(month)
        try writeOutput(page, to: html)
        print("report for \(month?.description ?? "all time") written to \(html): \(summary.drivers.count) driver(s), \(trips.count) trip(s)")
    }
}
