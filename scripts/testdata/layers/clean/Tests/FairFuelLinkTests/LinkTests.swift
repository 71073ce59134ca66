@testable import FairFuelLink
import FairFuelCore
import Foundation
import Glibc
import Testing
