import ArgumentParser
import CSQLite
import FairFuelCore
import Glibc
