import FairFuelCore
import RealModule
import struct FairFuelSimulation.Route
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
