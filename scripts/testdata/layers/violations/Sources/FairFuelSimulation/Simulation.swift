public import FairFuelCore
@preconcurrency import TestSupport
