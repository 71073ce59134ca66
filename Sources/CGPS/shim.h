#include <gps.h>
#include <stdarg.h>

// gps_send is variadic, which Swift cannot call: a fixed-arity wrapper.
static inline int fairfuel_gps_send_text(struct gps_data_t *gpsdata, const char *text) {
    return gps_send(gpsdata, "%s", text);
}
