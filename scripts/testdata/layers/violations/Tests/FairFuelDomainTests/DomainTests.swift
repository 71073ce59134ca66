@testable import FairFuelDomain
import FairFuelCore
import Foundation
import Testing
import TestSupport
import XCTest
