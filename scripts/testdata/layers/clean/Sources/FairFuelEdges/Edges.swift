import CPosixShims
import FairFuelCore
import FairFuelParsers

#if canImport(Glibc)
import Glibc
#endif
