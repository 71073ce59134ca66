// libmosquitto (Debian's libmosquitto-dev): the MQTT client, reached only from FairFuelEdges/MQTT.
#include <mosquitto.h>
#include <mqtt_protocol.h>
