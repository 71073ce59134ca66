/// The release, shared by `fairfuel`, `fairfueld` and the Debian package (scripts/build-deb.sh reads it here).
public enum FairFuelVersion {
    public static let string = "0.1.0"
}
