// Undeclared: a product's module, a C module and Foundation in product code.
import RealModule
import CSQLite
import Foundation

// Not imports: a comment, a block comment and a string.
// import FairFuelService
/*
import FairFuelService
*/
let text = """
    import FairFuelService
    """
