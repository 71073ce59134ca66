import RealModule
