import FairFuelCore
import FairFuelReports
import FairFuelStore

/// The charts page's figures, from the book the other pages read: each driver's consumption per month
/// (`fairfuel summary --month`), the estimate against the pump between full fills (the report's trend,
/// every period), and the price paid per litre or gallon at each refuel.
enum WebCharts {
    static func all(_ book: StoreBook) -> [LineChart] {
        [consumptionPerDriver(book), HTMLReport.trend(book.fullFills, units: book.units, title: "Estimated and real consumption between full fills"),
         pricePerVolume(book)]
    }

    /// Each driver's consumption in each month they drove (a month without a trip of theirs is a gap).
    static func consumptionPerDriver(_ book: StoreBook) -> LineChart {
        let u = book.units
        let months = Set(book.trips.compactMap { $0.startUTCMs.map { CalendarMonth(utcMs: $0, in: u.timeZone) } }).sorted()
        let summaries = months.map { book.summary($0).drivers }
        var names: [String] = []
        for drivers in summaries { for driver in drivers where !names.contains(driver.driverName) { names.append(driver.driverName) } }
        let series = names.map { name in
            LineChart.Series(name: name, values: summaries.map { drivers in
                drivers.first { $0.driverName == name }?.litersPer100km.flatMap(u.consumption(litersPer100km:))
            })
        }
        return LineChart(
            title: "Consumption per driver per month", unit: u.consumptionUnit, labels: months.map(\.description), series: series, decimals: 2)
    }

    /// What each refuel cost per litre (or gallon), in the car's currency; baseline marks and bills in
    /// another currency have no price here.
    static func pricePerVolume(_ book: StoreBook) -> LineChart {
        let u = book.units
        let priced = book.splits.map(\.refuel).filter { !$0.baseline && ($0.currency ?? u.currency) == u.currency && $0.liters > 0 }
        let perMajor = (0..<u.currencyMinorDigits).reduce(1.0) { value, _ in value * 10 }
        return LineChart(
            title: "Price per \(u.volumeUnit) at each refuel", unit: "\(u.currency)/\(u.volumeUnit)",
            labels: priced.map { u.minuteText(utcMs: $0.atUTCMs) },
            series: [.init(name: "price", values: priced.map { Double($0.cost.value) / perMajor / u.volume(liters: $0.liters) })], decimals: 3)
    }
}
