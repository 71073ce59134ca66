// Placeholder until the simulation tests land.
import Testing
