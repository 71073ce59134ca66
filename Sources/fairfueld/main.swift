// fairfueld: the dongle's daemon, as systemd runs it (/usr/sbin/fairfueld). Its command line and
// the service are in the runtime shell (DaemonCommandLine.main, ServiceDaemon): the same code as
// `fairfuel run`, and libc stays out of the executable.
import FairFuelService

DaemonCommandLine.main(Array(CommandLine.arguments.dropFirst()))
