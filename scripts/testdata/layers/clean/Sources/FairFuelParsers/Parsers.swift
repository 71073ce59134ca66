import FairFuelCore
import RealModule
