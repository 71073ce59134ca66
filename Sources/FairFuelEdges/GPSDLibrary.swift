import CGPS

/// Facts about the libgps the build links against.
public enum GPSDLibrary {
    /// The libgps API version the headers declare, e.g. `11.0`.
    public static var apiVersion: String { "\(GPSD_API_MAJOR_VERSION).\(GPSD_API_MINOR_VERSION)" }

    /// Size of libgps's session structure, which a client allocates once.
    public static var sessionStructureBytes: Int { MemoryLayout<gps_data_t>.size }
}
