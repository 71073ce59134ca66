import CSQLite
import FairFuelCore
