#!/usr/bin/env python3
"""Writes docs/openapi.json and Sources/FairFuelWeb/OpenAPIDocument.swift from this one description of /api/v1.

Run after changing the API: scripts/web/make-openapi.py (FairFuelWebTests checks the two files agree)."""
import json, os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

def nullable(kind):
    return {"type": [kind, "null"]}

ERROR = {"$ref": "#/components/schemas/Error"}
def errors(*codes):
    text = {400: "Bad input", 401: "No session", 403: "Not allowed (role, CSRF token, another site)", 404: "Not found",
            409: "Needs confirmation (send confirm: true)", 413: "Too large", 422: "Refused by the book's rules",
            429: "Too many failed logins from this address", 503: "The store cannot do it now"}
    return {str(c): {"description": text[c], "content": {"application/json": {"schema": ERROR}}} for c in codes}

READ_ERRORS = (400, 401, 404, 503)
CHANGE_ERRORS = (400, 401, 403, 404, 409, 413, 422, 503)

def ok(schema, code="200", description="OK"):
    return {code: {"description": description, "content": {"application/json": {"schema": schema}}}}

def body(schema):
    return {"required": True, "content": {"application/json": {"schema": schema}}}

def op(summary, responses, errs, request=None, params=None, change=False, public=False):
    o = {"summary": summary, "responses": {**responses, **errors(*errs)}}
    if request: o["requestBody"] = body(request)
    if params: o["parameters"] = params
    if public: o["security"] = []
    elif change: o["security"] = [{"session": [], "csrf": []}]
    return o

TRIP_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "string", "pattern": "^u?[0-9]+$"},
           "description": "A trip (42) or untracked driving (u7)"}
VEHICLE_ID = {"name": "vehicle", "in": "path", "required": True, "schema": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$"},
              "description": "The car's vehicle id (its topic level)"}
NUMERIC_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
ref = lambda name: {"$ref": "#/components/schemas/" + name}
arr = lambda items: {"type": "array", "items": items}

schemas = {
    "Error": {"type": "object", "required": ["error", "message"],
              "properties": {"error": {"type": "string"}, "message": {"type": "string"}}},
    "Session": {"type": "object", "required": ["user", "role", "csrf_token"],
                "properties": {"user": {"type": "string"}, "role": {"enum": ["family", "driver"]}, "csrf_token": {"type": "string"}}},
    "Trip": {"type": "object", "required": ["id", "driver", "distance_km", "fuel_l"],
             "properties": {"id": {"type": ["integer", "string"]}, "driver": nullable("string"), "start_utc": nullable("string"),
                            "end_utc": nullable("string"), "distance_km": {"type": "number"}, "fuel_l": {"type": "number"},
                            "duration_s": {"type": "integer"}}},
    "BillChange": {"type": "object", "required": ["refuel_id", "shares"],
                   "properties": {"refuel_id": {"type": "integer"}, "at_utc": nullable("string"), "cost_cents": {"type": "integer"},
                                  "kept_settled": {"type": "boolean"},
                                  "shares": arr({"type": "object", "properties": {
                                      "driver": nullable("string"), "before_cents": nullable("integer"), "after_cents": nullable("integer")}})}},
    "HubCommand": {"type": "object", "required": ["id", "command", "sent_utc", "state"], "properties": {
        "id": {"type": "string"}, "command": {"type": "string"}, "sent_utc": {"type": "string"},
        "state": {"enum": ["pending", "applied", "refused", "already_applied"]}, "reason": nullable("string")}},
    "Refuel": {"type": "object", "required": ["id", "at_utc", "liters", "cost_cents", "full"],
               "properties": {"id": {"type": "integer"}, "at_utc": nullable("string"), "liters": {"type": "number"},
                              "cost_cents": {"type": "integer"}, "currency": nullable("string"), "full": {"type": "boolean"},
                              "odometer_km": nullable("number"), "station": nullable("string"), "note": nullable("string"),
                              "settled_utc": nullable("string")}},
    "Bill": {"type": "object", "required": ["id", "cost_cents", "shares"],
             "properties": {"id": {"type": "integer"}, "at_utc": nullable("string"), "liters": {"type": "number"},
                            "cost_cents": {"type": "integer"}, "full": {"type": "boolean"}, "settled_utc": nullable("string"),
                            "shares": arr({"type": "object", "required": ["cost_cents"], "properties": {
                                "driver": nullable("string"), "fuel_l": {"type": "number"}, "cost_cents": {"type": "integer"}}})}},
    "DriverTotal": {"type": "object", "required": ["driver", "cost_cents"],
                    "properties": {"driver": nullable("string"), "fuel_l": {"type": "number"}, "cost_cents": {"type": "integer"},
                                   "refuels": {"type": "integer"}}},
    "RefuelChange": {"type": "object", "required": ["id", "bills"], "properties": {"id": {"type": "integer"}, "bills": arr(ref("BillChange"))}},
    "Learning": {"type": "object", "required": ["state"], "properties": {
        "state": {"enum": ["none", "waiting", "done", "failed"]}, "driver_id": {"type": "integer"}, "driver": {"type": "string"},
        "step": {"enum": ["tag", "beacon"]}, "seconds_left": {"type": "integer"}, "message": nullable("string")}},
    "Summary": {"type": "object", "required": ["drivers"], "description": "What `fairfuel summary --json` prints",
                "properties": {"month": nullable("string"), "cars": arr({"type": "string"}), "drivers": arr({"type": "object", "properties": {
                    "driver": {"type": "string"}, "trips": {"type": "integer"}, "distance_km": {"type": "number"}, "fuel_l": {"type": "number"},
                    "cost_cents": {"type": "integer"}}}), "bills_cents": {"type": "integer"}, "untracked_cost_cents": {"type": "integer"}}},
    "Driver": {"type": "object", "required": ["id", "name"],
               "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "tags": {"type": "integer"}, "beacons": {"type": "integer"}}},
}

paths = {
    "/api/v1/login": {"post": op("Log in (starts a session cookie)", ok(ref("Session")), (400, 401, 413, 429, 503),
                                 request={"type": "object", "required": ["username", "password"],
                                          "properties": {"username": {"type": "string"}, "password": {"type": "string"}}}, public=True)},
    "/api/v1/logout": {"post": op("Log out", ok({"type": "object"}), (401, 403), change=True)},
    "/api/v1/session": {"get": op("Who is logged in, and the CSRF token changes carry", ok(ref("Session")), (401,))},
    "/api/v1/home": {"get": op("The home page's figures", ok({"type": "object", "required": ["vehicle", "month_drivers", "totals", "untracked"],
        "properties": {"vehicle": {"type": "string"}, "currency": {"type": "string"}, "month": {"type": "string"},
                       "month_drivers": arr({"type": "object", "properties": {"driver": {"type": "string"}, "distance_km": {"type": "number"},
                                                                               "fuel_l": {"type": "number"}, "cost_cents": {"type": "integer"}}}),
                       "totals": arr(ref("DriverTotal")), "open_since_utc": nullable("string"),
                       "open_bill": {"type": "object", "required": ["since_utc", "estimated_price_per_l_cents", "drivers"], "properties": {
                           "since_utc": nullable("string"), "estimated_price_per_l_cents": nullable("number"),
                           "drivers": arr({"type": "object", "required": ["driver", "untracked", "fuel_l", "estimated_cost_cents"], "properties": {
                               "driver": nullable("string"), "untracked": {"type": "boolean"}, "fuel_l": {"type": "number"},
                               "estimated_cost_cents": nullable("integer")}})}},
                       "untracked": arr(ref("Trip")),
                       "now": {"type": "object", "required": ["driving", "driver", "tank_l"], "properties": {
                           "driving": {"enum": ["parked", "driven", "not_known"]}, "driver": nullable("string"),
                           "tank_l": nullable("number"), "tank_capacity_l": {"type": "number"}}}}}), READ_ERRORS)},
    "/api/v1/trips": {"get": op("Trips, oldest first", ok(arr(ref("Trip"))), READ_ERRORS, params=[
        {"name": "driver", "in": "query", "schema": {"type": "string"}, "description": "A driver's name, or (untracked)"},
        {"name": "month", "in": "query", "schema": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$"}}])},
    "/api/v1/trips/{id}": {"get": op("A trip and its track", ok({"type": "object", "required": ["trip", "track"],
        "properties": {"trip": ref("Trip"), "track": arr({"type": "object", "properties": {
            "at_utc": nullable("string"), "lat": {"type": "number"}, "lon": {"type": "number"}, "speed_kmh": {"type": "number"}}})}}),
        READ_ERRORS, params=[TRIP_ID])},
    "/api/v1/trips/{id}/assign": {"post": op("Give a trip to a driver (a driver-role user: only their own untracked driving)",
        ok({"type": "object", "required": ["trips", "bills"], "properties": {"trips": arr({"type": "object"}), "bills": arr(ref("BillChange"))}}),
        CHANGE_ERRORS, request={"type": "object", "required": ["driver"], "properties": {"driver": {"type": "string"}, "confirm": {"type": "boolean"}}},
        params=[TRIP_ID], change=True)},
    "/api/v1/trips/{id}/delete": {"post": op("Delete a trip (family); its fuel stays as untracked driving",
        ok({"type": "object", "required": ["deleted", "bills"], "properties": {"deleted": {"type": "string"}, "driver": nullable("string"),
                                                                               "untracked": arr({"type": "string"}), "bills": arr(ref("BillChange"))}}),
        CHANGE_ERRORS, request={"type": "object", "properties": {"confirm": {"type": "boolean"}}}, params=[TRIP_ID], change=True)},
    "/api/v1/refuels": {
        "get": op("The fuel log, oldest first", ok(arr(ref("Refuel"))), READ_ERRORS),
        "post": op("Record a refuel now", ok({"type": "object", "required": ["id", "bills"],
                                             "properties": {"id": {"type": "integer"}, "bills": arr(ref("BillChange"))}}, "201", "Recorded"),
                   CHANGE_ERRORS, request={"type": "object", "required": ["liters", "cost"], "properties": {
                       "liters": {"type": "number", "exclusiveMinimum": 0}, "cost": {"type": "string", "pattern": "^[0-9]+([.,][0-9]{1,3})?$"},
                       "full": {"type": "boolean"}, "odometer_km": {"type": "number", "minimum": 0},
                       "station": {"type": "string", "maxLength": 200}, "note": {"type": "string", "maxLength": 200}, "confirm": {"type": "boolean"}}},
                   change=True)},
    "/api/v1/refuels/{id}/edit": {"post": op("Correct a refuel (family): what is given changes; bills re-split",
        ok(ref("RefuelChange")), CHANGE_ERRORS, request={"type": "object", "properties": {
            "at": {"type": "string", "description": "When (ISO 8601; without an offset, the car's local time): moves the refuel, "
                   "refused in the future, before the car's first record or inside a settled bill's period"},
            "liters": {"type": "number", "exclusiveMinimum": 0}, "cost": {"type": "string", "pattern": "^[0-9]+([.,][0-9]{1,3})?$"},
            "full": {"type": "boolean"}, "odometer_km": {"type": "number", "minimum": 0}, "confirm": {"type": "boolean"}}},
        params=[NUMERIC_ID], change=True)},
    "/api/v1/refuels/{id}/remove": {"post": op("Remove a refuel (family); every split recomputed", ok(ref("RefuelChange")), CHANGE_ERRORS,
        request={"type": "object", "properties": {"confirm": {"type": "boolean"}}}, params=[NUMERIC_ID], change=True)},
    "/api/v1/bills": {"get": op("Every bill's split", ok(arr(ref("Bill"))), READ_ERRORS)},
    "/api/v1/bills/{id}/settle": {"post": op("Settle a bill (family)", ok({"type": "object", "required": ["id", "settled"],
        "properties": {"id": {"type": "integer"}, "settled": {"type": "boolean"}}}), CHANGE_ERRORS, params=[NUMERIC_ID], change=True)},
    "/api/v1/bills/{id}/unsettle": {"post": op("Unsettle a bill (family): re-split from the data", ok({"type": "object",
        "required": ["id", "unsettled", "bills"], "properties": {"id": {"type": "integer"}, "unsettled": {"type": "boolean"},
                                                                "bills": arr(ref("BillChange"))}}), CHANGE_ERRORS, params=[NUMERIC_ID], change=True)},
    "/api/v1/drivers": {"get": op("The current drivers", ok(arr(ref("Driver"))), READ_ERRORS),
                        "post": op("Add a driver (family), without tag or beacon: the car learns them (drivers/{id}/learn)",
                                   ok(ref("Driver"), "201", "Added"), CHANGE_ERRORS,
                                   request={"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}, change=True)},
    "/api/v1/drivers/learning": {"get": op("What the car waits for (a tap, a beacon), or how the last learning ended", ok(ref("Learning")),
                                           READ_ERRORS)},
    "/api/v1/drivers/{id}/learn": {"post": op("Ask the car to learn the driver's tag (a tap) or beacon (family; needs the running service)",
        ok(ref("Learning"), "202", "The car waits"), CHANGE_ERRORS,
        request={"type": "object", "required": ["step"], "properties": {"step": {"enum": ["tag", "beacon"]}}}, params=[NUMERIC_ID], change=True)},
    "/api/v1/drivers/{id}/rename": {"post": op("Rename a driver (family), history included", ok(ref("Driver")), CHANGE_ERRORS,
        request={"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}, params=[NUMERIC_ID], change=True)},
    "/api/v1/drivers/{id}/remove": {"post": op("Remove a driver (family); their trips keep their name", ok(ref("Driver")), CHANGE_ERRORS,
        params=[NUMERIC_ID], change=True)},
    "/api/v1/family": {"get": op("The hub's family view of every car (fairfuel web --hub-db; 404 on a car); read_only unless the app sends corrections (--mqtt-url, --secrets)",
        ok({"type": "object", "required": ["read_only", "people", "month", "all_time", "cars"], "properties": {
            "read_only": {"type": "boolean"}, "note": {"type": "string"},
            "people": arr({"type": "object", "description": "What `fairfuel family --json` prints", "properties": {
                "driver": {"type": "string"}, "driver_uuid": nullable("string"), "cars": arr({"type": "string"}), "trips": {"type": "integer"},
                "distance_km": {"type": "number"}, "fuel_l": {"type": "number"},
                "owes": arr({"type": "object", "properties": {"currency": {"type": "string"}, "minor": {"type": "integer"}, "text": {"type": "string"}}})}}),
            "month": ref("Summary"), "all_time": ref("Summary"),
            "cars": arr({"type": "object", "required": ["car"], "properties": {
                "car": {"type": "string"}, "vehicle_id": nullable("string"), "month": ref("Summary"), "all_time": ref("Summary"),
                "latest_trips": arr(ref("Trip")), "latest_refuels": arr(ref("Refuel")), "commands": arr(ref("HubCommand"))}})}}),
        READ_ERRORS, params=[{"name": "month", "in": "query", "schema": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$"},
                              "description": "YYYY-MM on the family's calendar; default: this month"}])},
    "/api/v1/family/cars/{vehicle}/commands": {
        "get": op("The corrections the hub sent a car, newest first, each pending until the car answers (hub's app)",
            ok({"type": "object", "required": ["vehicle_id", "read_only", "commands"], "properties": {
                "vehicle_id": {"type": "string"}, "read_only": {"type": "boolean"}, "commands": arr(ref("HubCommand"))}}),
            READ_ERRORS, params=[VEHICLE_ID]),
        "post": op("Send a car a correction (family; hub's app with --mqtt-url and --secrets): signed with the car's pairing secret, "
                   "published on <prefix>/<vehicle>/command, pending until the car answers; the fields are `fairfuel hub command`'s",
            ok({"type": "object", "required": ["id", "vehicle_id", "command", "state"], "properties": {
                "id": {"type": "string"}, "vehicle_id": {"type": "string"}, "command": {"type": "string"}, "state": {"enum": ["pending"]}}},
               code="202", description="Published; pending until the car answers"),
            CHANGE_ERRORS, params=[VEHICLE_ID], change=True, request={"type": "object", "required": ["action"], "properties": {
                "action": {"enum": ["refuel add", "refuel edit", "refuel remove", "trip assign", "trip move", "trip delete", "settle", "unsettle", "baseline mark"]},
                "at": {"type": "string", "description": "refuel add or edit, baseline mark: ISO 8601 (refuel add, baseline mark: default now)"},
                "liters": {"type": "number", "exclusiveMinimum": 0},
                "cost": {"type": "string", "description": "e.g. 54.32, in the car's currency (as its bills at the hub have it)"},
                "currency": {"type": "string", "pattern": "^[A-Za-z]{3}$",
                             "description": "the cost's ISO 4217 code: needed only for a car the hub holds no bill of; it must be the car's"},
                "full": {"type": "boolean", "description": "refuel add: default true; refuel edit: as it is unless given"},
                "odometer_km": {"type": "number", "minimum": 0}, "station": {"type": "string"}, "note": {"type": "string"},
                "refuel": {"type": "string", "description": "refuel edit or remove: its id; settle, unsettle: ids separated by commas"},
                "trip": {"type": "string", "description": "trip assign: 42 or u7, several separated by commas; trip move: one recorded trip (42); trip delete: one"},
                "driver": {"type": "string", "description": "trip assign or move: to whom"},
                "confirm": {"type": "boolean", "description": "also when it moves a settled bill's split (the CLI's --force)"},
                "command_id": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$",
                               "description": "default: a new one; the same id again is answered already_applied by the car"}}})},
    "/api/v1/openapi.json": {"get": {"summary": "This document", "security": [],
                                     "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
}

document = {
    "openapi": "3.1.0",
    "info": {"title": "FairFuel family app API", "version": "1.0.0",
             "description": "The data and actions of the family's web app (fairfuel web). Log in with POST /api/v1/login; "
                            "every change carries the session's csrf_token in X-CSRF-Token. Money in minor units (cost_cents)."},
    "security": [{"session": []}],
    "paths": paths,
    "components": {"schemas": schemas, "securitySchemes": {
        "session": {"type": "apiKey", "in": "cookie", "name": "fairfuel_session"},
        "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token"}}},
}

text = json.dumps(document, indent=1, sort_keys=False) + "\n"
with open(os.path.join(ROOT, "docs", "openapi.json"), "w") as f:
    f.write(text)
assert '"""' not in text and "\\(" not in text
with open(os.path.join(ROOT, "Sources", "FairFuelWeb", "OpenAPIDocument.swift"), "w") as f:
    f.write("// Written by scripts/web/make-openapi.py (with docs/openapi.json): edit that script, not this file.\n")
    f.write("enum OpenAPIDocument {\n    /// The OpenAPI 3.1 description of /api/v1, served at /api/v1/openapi.json.\n")
    # The document's own lines as escaped newlines (\#n), several to a source line joined by the raw
    # string's line continuation (\#): the same text served, in a file a tenth as long.
    assert "\\#" not in text
    chunks, chunk = [], ""
    for line in text[:-1].split("\n"):
        piece = line + "\\#n"
        if chunk and len(chunk) + len(piece) > 400:
            chunks.append(chunk)
            chunk = ""
        chunk += piece
    chunks.append(chunk[: -len("\\#n")])
    f.write('    static let text = #"""\n' + "\\#\n".join(chunks) + '\n"""#\n}\n')
