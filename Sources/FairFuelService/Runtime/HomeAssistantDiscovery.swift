import FairFuelConfiguration
import FairFuelCore
import FairFuelDomain
import FairFuelStore

/// Home Assistant's MQTT discovery for one car (docs/mqtt.md, "Home Assistant discovery"): the
/// retained `config` messages that make the car a device with its sensors, and their states.
///
/// Configs go to `<prefix>/<component>/<vehicle>/<object>/config` (Home Assistant's node id is the
/// vehicle uplink id, so that a per-car ACL can allow `<prefix>/+/%u/#`); each entity's `unique_id`
/// is `<vehicle>_<object>`. States go beside them (`.../state`, `.../attributes`), never under the
/// car's record topics, which consumers read as outbox messages.
struct HomeAssistantDiscovery {
    /// One retained message.
    struct Message: Equatable {
        var topic: String
        var payload: String
    }

    /// A driver's month: the fuel of their trips that started in it, their shares of its bills.
    struct DriverMonth: Equatable {
        var driver: DirectoryDriver
        var fuelLiters: Double
        var costMinorUnits: Int64
    }

    typealias DirectoryDriver = DriverDirectory.Driver

    let prefix: String
    let vehicleID: String
    let availabilityTopic: String
    let positions: BoardProfile.UplinkPositions

    init(settings: BoardProfile.Uplink, vehicleID: String) {
        prefix = settings.homeAssistantPrefix
        self.vehicleID = vehicleID
        availabilityTopic = settings.statusTopic(vehicleID: vehicleID)
        positions = settings.positions
    }

    var driverStateTopic: String { "\(prefix)/sensor/\(vehicleID)/driver/state" }
    var tankStateTopic: String { "\(prefix)/sensor/\(vehicleID)/tank/state" }
    var positionStateTopic: String { "\(prefix)/device_tracker/\(vehicleID)/position/attributes" }
    func monthStateTopic(_ driver: DriverID) -> String { "\(prefix)/sensor/\(vehicleID)/driver\(driver.rawValue)_month/state" }

    /// Every config message: the current driver, the estimated fuel in the tank, cost and fuel
    /// this month per provisioned driver, and the car as a device tracker when positions leave the car.
    func configs(vehicle: VehicleProfile, drivers: [DirectoryDriver]) -> [Message] {
        var messages = [config("sensor", "driver", vehicle: vehicle) { j in
            j.add("name", "Driver")
            j.add("state_topic", driverStateTopic)
            j.add("icon", "mdi:account")
        }]
        messages.append(config("sensor", "tank", vehicle: vehicle) { j in
            j.add("name", "Fuel in tank")
            j.add("state_topic", tankStateTopic)
            // A null tank_l renders None, which Home Assistant shows as unknown.
            j.add("value_template", "{{ value_json.tank_l }}")
            j.add("unit_of_measurement", "L")
            j.add("device_class", "volume_storage")
            j.add("state_class", "measurement")
            j.add("icon", "mdi:gas-station")
        })
        for driver in drivers {
            let topic = monthStateTopic(driver.id)
            messages.append(config("sensor", "driver\(driver.id.rawValue)_cost_month", vehicle: vehicle) { j in
                j.add("name", "\(driver.name) cost this month")
                j.add("state_topic", topic)
                j.add("value_template", "{{ value_json.cost }}")
                j.add("unit_of_measurement", vehicle.currency)
                j.add("device_class", "monetary")
                j.add("state_class", "total")
            })
            messages.append(config("sensor", "driver\(driver.id.rawValue)_fuel_month", vehicle: vehicle) { j in
                j.add("name", "\(driver.name) fuel this month")
                j.add("state_topic", topic)
                j.add("value_template", "{{ value_json.fuel_l }}")
                j.add("unit_of_measurement", "L")
                j.add("device_class", "volume")
                j.add("state_class", "total")
            })
        }
        if positions != .none {
            messages.append(config("device_tracker", "position", vehicle: vehicle) { j in
                j.add("name", "Position")
                j.add("json_attributes_topic", positionStateTopic)
                j.add("source_type", "gps")
                j.add("icon", "mdi:car")
            })
        }
        return messages
    }

    /// The config of a driver who is no longer provisioned: an empty retained payload removes it.
    func removals(of drivers: [DirectoryDriver]) -> [Message] {
        drivers.flatMap { driver in
            ["cost", "fuel"].map {
                Message(topic: "\(prefix)/sensor/\(vehicleID)/driver\(driver.id.rawValue)_\($0)_month/config", payload: "")
            }
        }
    }

    /// The driver now at the wheel, or `none`.
    func driverState(_ name: String?) -> Message { Message(topic: driverStateTopic, payload: name ?? "none") }

    /// `{"month":"2026-11","cost":12.34,"fuel_l":7.125}`: money in the vehicle's currency, major units.
    func monthState(_ figures: DriverMonth, month: CalendarMonth, vehicle: VehicleProfile) -> Message {
        var j = JSONLine()
        j.add("month", month.description)
        j.addRaw("cost", json: MoneyText.format(MinorUnits(figures.costMinorUnits), minorDigits: vehicle.currencyMinorDigits))
        j.add("currency", vehicle.currency)
        j.add("fuel_l", figures.fuelLiters, decimals: 3)
        return Message(topic: monthStateTopic(figures.driver.id), payload: j.string)
    }

    /// `{"tank_l":23.418,"capacity_l":50.0}`: the estimated litres in the tank (`TankLevel`), null
    /// before the first full-tank refuel, and the tank's capacity.
    func tankState(liters: Double?, vehicle: VehicleProfile) -> Message {
        var j = JSONLine()
        j.add("tank_l", liters, decimals: 3)
        j.add("capacity_l", vehicle.tankLiters, decimals: 1)
        return Message(topic: tankStateTopic, payload: j.string)
    }

    /// `{"latitude":…,"longitude":…,"gps_accuracy":…}`: Home Assistant places the tracker there.
    func positionState(latitude: Double, longitude: Double) -> Message {
        var j = JSONLine()
        j.add("latitude", latitude, decimals: 6)
        j.add("longitude", longitude, decimals: 6)
        j.add("gps_accuracy", 10)
        return Message(topic: positionStateTopic, payload: j.string)
    }

    private func config(_ component: String, _ object: String, vehicle: VehicleProfile, _ fill: (inout JSONLine) -> Void) -> Message {
        var j = JSONLine()
        j.add("unique_id", "\(vehicleID)_\(object)")
        // The entity id Home Assistant gives it at first (`sensor.fairfuel_driver`): `default_entity_id`
        // since 2025.10, which stopped honouring `object_id` in 2026.4.
        j.add("default_entity_id", "\(component).fairfuel_\(object)")
        fill(&j)
        j.add("availability_topic", availabilityTopic)
        j.add("payload_available", "online")
        j.add("payload_not_available", "offline")
        var device = JSONLine()
        var identifier = ""
        JSONLine.appendQuoted(vehicleID, to: &identifier)
        device.addRaw("identifiers", json: JSONLine.array([identifier]))
        device.add("name", vehicle.name)
        device.add("manufacturer", "FairFuel")
        device.add("model", "FairFuel dongle")
        device.add("sw_version", FairFuelVersion.string)
        j.addRaw("device", json: device.string)
        return Message(topic: "\(prefix)/\(component)/\(vehicleID)/\(object)/config", payload: j.string)
    }
}
