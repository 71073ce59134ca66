import CPosixShims
import FairFuelCore

#if canImport(Glibc)
import Glibc
#endif
