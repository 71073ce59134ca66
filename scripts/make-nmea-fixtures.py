#!/usr/bin/env python3
"""Writes the synthetic NMEA fixtures of Tests/FairFuelParsersTests/Fixtures/nmea/synthetic.

    python3 scripts/make-nmea-fixtures.py

Each file is what one class of receiver sends, written from the standards
(NMEA 0183 sentence layouts, u-blox UBX and CASIC framing, SiRF, RTCM 3 and
Garmin binary framing), never copied from a log: the positions are a simple
straight track with known speed so that tests can check the decoded fixes
against the truth. Deterministic: running it again gives the same bytes.
The golden outputs (*.log.ffchk) are then regenerated and reviewed with
    FAIRFUEL_REGENERATE_GOLDEN=1 swift test --filter NMEACorpusTests/goldenOutput
"""
import math
import os
import struct

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "FairFuelParsersTests", "Fixtures", "nmea", "synthetic")
KNOT = 1852 / 3600  # m/s


def nmea(body, delimiter="$"):
    checksum = 0
    for byte in body.encode():
        checksum ^= byte
    return f"{delimiter}{body}*{checksum:02X}\r\n".encode()


def lat_field(lat, decimals=4):
    hemisphere = "N" if lat >= 0 else "S"
    lat = abs(lat)
    degrees = int(lat)
    return f"{degrees:02d}{(lat - degrees) * 60:0{3 + decimals}.{decimals}f},{hemisphere}"


def lon_field(lon, decimals=4):
    hemisphere = "E" if lon >= 0 else "W"
    lon = abs(lon)
    degrees = int(lon)
    return f"{degrees:03d}{(lon - degrees) * 60:0{3 + decimals}.{decimals}f},{hemisphere}"


def hhmmss(seconds, decimals=2):
    seconds %= 86400
    h = int(seconds // 3600)
    m = int(seconds % 3600 // 60)
    s = seconds % 60
    width = 3 + decimals if decimals else 2
    return f"{h:02d}{m:02d}{s:0{width}.{decimals}f}"


def ddmmyy(day, month, year):
    return f"{day:02d}{month:02d}{year % 100:02d}"


class Track:
    """A straight track from (lat0, lon0) with a heading and a speed profile."""

    def __init__(self, lat0, lon0, heading_deg):
        self.lat0, self.lon0, self.heading = lat0, lon0, math.radians(heading_deg)

    def at(self, distance_m):
        north = distance_m * math.cos(self.heading)
        east = distance_m * math.sin(self.heading)
        lat = self.lat0 + north / 111_132.954
        lon = self.lon0 + east / (111_319.488 * math.cos(math.radians(self.lat0)))
        return lat, lon


def ubx(cls, msg_id, payload):
    body = bytes([cls, msg_id]) + struct.pack("<H", len(payload)) + payload
    a = b = 0
    for byte in body:
        a = (a + byte) & 0xFF
        b = (b + a) & 0xFF
    return b"\xb5\x62" + body + bytes([a, b])


def casic(cls, msg_id, payload):
    assert len(payload) % 4 == 0
    checksum = (msg_id << 24) + (cls << 16) + len(payload)
    for index in range(0, len(payload), 4):
        checksum += struct.unpack_from("<I", payload, index)[0]
    return b"\xba\xce" + struct.pack("<HBB", len(payload), cls, msg_id) + payload + struct.pack("<I", checksum & 0xFFFFFFFF)


def pseudo_payload(length, seed):
    """Deterministic payload bytes, including 0x0A, '$' and sync bytes, to test the framing."""
    out = bytearray()
    state = seed
    for _ in range(length):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(state >> 16 & 0xFF)
    return bytes(out)


def header(name, what, lines):
    text = f"# Name: {name}\n# Synthetic fixture, not a real receiver: written by scripts/make-nmea-fixtures.py (FairFuel).\n"
    text += f"# Class: {what}\n"
    for line in lines:
        text += f"# {line}\n"
    return text.encode()


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def marine():
    # A boat at 6 knots heading 045, position from an integrated navigation system (IN),
    # speed from the instrument bus (II), date from ECDIS (EC); other instruments talk too.
    track = Track(59.4100, 10.5000, 45)
    speed = 6 * KNOT
    out = header("marine-talkers", "marine instruments relaying position (talkers IN, II, EC, SD, WI, HC)", [
        "Truth: 10 epochs at 1 Hz from 2025-06-14T10:00:00Z, 6 kn (3.087 m/s) true course 045.",
        "GGA/RMC from IN, VTG and GLL from II, ZDA from EC; DBT (SD), MWV (WI), HDG (HC) are not decoded.",
    ])
    for second in range(10):
        t = 36000 + second
        lat, lon = track.at(speed * second)
        out += nmea(f"SDDBT,22.3,f,6.8,M,3.7,F")
        out += nmea(f"WIMWV,214.8,R,11.2,N,A")
        out += nmea(f"HCHDG,47.1,,,2.1,E")
        out += nmea(f"INGGA,{hhmmss(t)},{lat_field(lat)},{lon_field(lon)},1,09,0.9,12.0,M,39.1,M,,")
        out += nmea(f"INRMC,{hhmmss(t)},A,{lat_field(lat)},{lon_field(lon)},{6.0:.1f},45.0,{ddmmyy(14, 6, 2025)},2.1,E,A")
        out += nmea(f"IIVTG,45.0,T,42.9,M,6.0,N,11.1,K,A")
        out += nmea(f"IIGLL,{lat_field(lat)},{lon_field(lon)},{hhmmss(t)},A,A")
        out += nmea(f"ECZDA,{hhmmss(t)},14,06,2025,00,00")
    write("marine-talkers.log", out)


def ublox_mixed():
    # A u-blox receiver with NMEA and UBX enabled on the same port, 1 Hz, 20 m/s heading 090.
    track = Track(48.7400, 9.3100, 90)
    out = header("nmea-ubx", "NMEA interleaved with u-blox UBX packets", [
        "Truth: 8 epochs at 1 Hz from 2024-01-30T15:31:00Z, 20 m/s (38.877 kn) course 090.",
        "Each epoch: UBX NAV-PVT-sized packet (92 bytes of pseudo payload, with 0x0A and '$' bytes) before",
        "the NMEA, UBX NAV-SAT (pseudo) glued to the end of RMC with no line end, GGA right after a UBX packet.",
        "Epoch 4: a UBX header whose length (4000) points past the next sentences and whose checksum fails.",
        "Epoch 6: a UBX packet cut short (truncated by the port), then the sentences.",
        "Expected UBX packets: 8 NAV-PVT + 8 NAV-SAT + 8 pre-GGA = 24; the fake and the cut one are rejected.",
    ])
    for second in range(8):
        t = 55860 + second
        lat, lon = track.at(20 * second)
        pvt = ubx(0x01, 0x07, pseudo_payload(92, second + 1) + b"$GPGGA,\n")
        out += pvt
        if second == 4:
            out += b"\xb5\x62\x01\x07" + struct.pack("<H", 4000) + b"\x00" * 10
        if second == 6:
            cut = ubx(0x01, 0x35, pseudo_payload(60, 77))
            out += cut[:30]
        out += nmea(f"GNRMC,{hhmmss(t)},A,{lat_field(lat)},{lon_field(lon)},{20 / KNOT:.3f},90.00,{ddmmyy(30, 1, 2024)},,,A,V")[:-2]
        out += ubx(0x01, 0x35, pseudo_payload(8 + 12 * 4, 100 + second))
        out += b"\r\n"
        out += nmea(f"GNVTG,90.00,T,,M,{20 / KNOT:.3f},N,{20 * 3.6:.3f},K,A")
        out += ubx(0x0A, 0x09, pseudo_payload(60, 200 + second))
        out += nmea(f"GNGGA,{hhmmss(t)},{lat_field(lat)},{lon_field(lon)},1,12,0.80,263.6,M,46.1,M,,")
        out += nmea("GNGSA,A,3,02,05,13,15,18,20,23,24,29,,,,1.40,0.80,1.15,1")
    write("nmea-ubx.log", out)


def casic_mixed():
    # A Quectel L76K (AllyStar CASIC firmware) with its binary NAV output on, 1 Hz, 12 m/s heading 180.
    track = Track(31.2300, 121.4700, 180)
    out = header("nmea-casic", "NMEA interleaved with CASIC binary packets (Quectel L76K, AllyStar)", [
        "Truth: 6 epochs at 1 Hz from 2023-09-09T04:20:00Z, 12 m/s (23.326 kn) course 180.",
        "Each epoch: CASIC NAV-PV (0x01 0x03, 80-byte pseudo payload) and NAV-TIMEUTC (0x01 0x10, 24 bytes) packets",
        "between sentences; epoch 3 has a CASIC packet with a bad checksum (rejected, its bytes rescanned).",
        "Expected CASIC packets: 12.",
    ])
    for second in range(6):
        t = 15600 + second
        lat, lon = track.at(12 * second)
        out += nmea(f"GNGGA,{hhmmss(t, 3)},{lat_field(lat)},{lon_field(lon)},1,14,0.9,8.5,M,0.0,M,,")
        out += casic(0x01, 0x03, pseudo_payload(80, 300 + second))
        out += nmea(f"GNGLL,{lat_field(lat)},{lon_field(lon)},{hhmmss(t, 3)},A,A")
        out += nmea("GNGSA,A,3,10,12,18,23,24,25,32,,,,,,1.5,0.9,1.2,1")
        out += nmea("GPGSV,2,1,07,10,60,045,40,12,30,120,38,18,45,200,42,23,10,310,30,0")
        if second == 3:
            bad = bytearray(casic(0x01, 0x10, pseudo_payload(24, 400)))
            bad[-1] ^= 0x55
            out += bytes(bad)
        out += casic(0x01, 0x10, pseudo_payload(24, 500 + second))
        out += nmea(f"GNRMC,{hhmmss(t, 3)},A,{lat_field(lat)},{lon_field(lon)},{12 / KNOT:.3f},180.00,{ddmmyy(9, 9, 2023)},,,A,V")
        out += nmea(f"GNVTG,180.00,T,,M,{12 / KNOT:.3f},N,{12 * 3.6:.3f},K,A")
        out += nmea(f"GNZDA,{hhmmss(t, 3)},09,09,2023,00,00")
        out += nmea("GPTXT,01,01,01,ANTENNA OK")
    write("nmea-casic.log", out)


def casic_only():
    # A Quectel L76K set to CASIC binary output only (PCAS03 all zero): NAV-PV then NAV-TIMEUTC each epoch.
    track = Track(52.5200, 13.4050, 90)
    out = header("casic-only", "CASIC binary only, no NMEA (Quectel L76K, ATGM336H in binary mode)", [
        "Truth: 6 epochs at 1 Hz from 2025-03-14T09:26:00Z, 15 m/s course 090, 40.5 m above sea level, 11 satellites.",
        "Each epoch: NAV-PV (0x01 0x03, 80 bytes) then NAV-TIMEUTC (0x01 0x10, 24 bytes) of the same run time,",
        "laid out by the CASIC protocol specification V4.2.0.3, 2.7.4 and 2.7.5. Epoch 2's NAV-PV has a bad",
        "checksum and epoch 4's is cut after 40 bytes (both rejected, their epochs lost): 4 fixes, 10 CASIC packets.",
    ])
    for second in range(6):
        run_time = 61_000 + second * 1000
        lat, lon = track.at(15 * second)
        pv = struct.pack("<IBBBBBBBBf", run_time, 7, 7, 0x03, 11, 6, 5, 0, 0, 1.6)
        pv += struct.pack("<dd", lon, lat)
        # height, sepGeoid, hAcc, vAcc, velN, velE, velU, speed3D, speed2D, heading, sAcc, cAcc
        pv += struct.pack("<12f", 80.0, 39.5, 4.0, 9.0, 0.0, 15.0, 0.0, 15.0, 15.0, 90.0, 0.04, 1.0)
        frame = casic(0x01, 0x03, pv)
        if second == 2:
            frame = bytearray(frame)
            frame[6 + 24 + 2] ^= 0x20
            frame = bytes(frame)
        if second == 4:
            frame = frame[:40]
        out += frame
        utc = struct.pack("<Iff", run_time, 1e-14, 0.0)
        utc += struct.pack("<HBBBBBBBBH", 2025, 3, 14, 9, 26, second, 0x07, 0, 3, 0)
        out += casic(0x01, 0x10, utc)
    # `fairfuel nmea` hands the lexer each line with its LF: the file ends with one, so that the CLI
    # and the decoder see the same bytes (and share the golden output).
    out += b"\n"
    write("casic-only.log", out)


def gga_10hz():
    # A 10 Hz receiver configured for GGA and GSA only: no RMC, VTG or ZDA, so no date and no speed.
    track = Track(45.5000, -73.5600, 30)
    out = header("gga-10hz", "10 Hz receiver sending only GGA and GSA (no speed, no date)", [
        "Truth: 40 epochs at 10 Hz from 13:00:00.0 (no date), accelerating 1 m/s^2 from 8 m/s, course 030.",
        "Expected: speed derived from positions 0.9 s or more apart (within 0.3 m/s of the truth at the",
        "middle of each step), course 030 within a degree; utc null (no date), time of day kept.",
    ])
    for tenth in range(40):
        seconds = tenth / 10
        distance = 8 * seconds + 0.5 * seconds * seconds
        lat, lon = track.at(distance)
        # Seven decimals of minutes (1 cm), more than the usual four or five.
        out += nmea(f"GPGGA,{hhmmss(46800 + seconds, 1)},{lat_field(lat, 7)},{lon_field(lon, 7)},1,08,1.0,30.0,M,-33.0,M,,")
        out += nmea("GPGSA,A,3,01,03,08,11,14,17,22,28,,,,,1.8,1.0,1.5")
    write("gga-10hz.log", out)


def zda_date():
    # A timing receiver: GGA, VTG and ZDA; the date comes only from ZDA.
    track = Track(52.3700, 4.9000, 270)
    out = header("zda-date", "date only from ZDA (GGA + VTG + ZDA, no RMC)", [
        "Truth: 5 epochs at 1 Hz from 2022-02-28T08:15:30Z, 2 m/s course 270; every fix dated 2022-02-28.",
    ])
    for second in range(5):
        t = 29730 + second
        lat, lon = track.at(2 * second)
        out += nmea(f"GPGGA,{hhmmss(t)},{lat_field(lat)},{lon_field(lon)},2,10,0.7,1.5,M,47.0,M,3,0000")
        out += nmea(f"GPVTG,270.0,T,,M,{2 / KNOT:.2f},N,{2 * 3.6:.2f},K,D")
        out += nmea(f"GPZDA,{hhmmss(t)},28,02,2022,,")
    write("zda-date.log", out)


def midnight():
    # RMC only in the first epoch, then GGA + VTG across midnight: the date is carried and rolls over.
    track = Track(-33.8600, 151.2100, 0)
    out = header("midnight", "the date carried across epochs and midnight (RMC once, then GGA + VTG)", [
        "Truth: 8 epochs at 1 Hz from 2025-12-31T23:59:56Z, 5 m/s course 000; the last 4 on 2026-01-01.",
    ])
    for second in range(8):
        t = 86396 + second
        lat, lon = track.at(5 * second)
        if second == 0:
            out += nmea(f"GPRMC,{hhmmss(t)},A,{lat_field(lat)},{lon_field(lon)},{5 / KNOT:.2f},0.0,{ddmmyy(31, 12, 2025)},,,A")
        out += nmea(f"GPGGA,{hhmmss(t)},{lat_field(lat)},{lon_field(lon)},1,07,1.1,40.0,M,22.0,M,,")
        out += nmea(f"GPVTG,0.0,T,,M,{5 / KNOT:.2f},N,{5 * 3.6:.2f},K,A")
    write("midnight.log", out)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    marine()
    ublox_mixed()
    casic_mixed()
    casic_only()
    gga_10hz()
    zda_date()
    midnight()
