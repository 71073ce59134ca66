// libmosquitto's header (Debian's libmosquitto-dev) for its constants; the library is dlopen'ed by FairFuelEdges/MQTT.
#include <mosquitto.h>
#include <mqtt_protocol.h>
