import FairFuelCore
@testable import FairFuelDomain
