import FairFuelCore
import Foundation
import Glibc
