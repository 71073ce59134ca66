// Written by scripts/web/make-openapi.py (with docs/openapi.json): edit that script, not this file.
enum OpenAPIDocument {
    /// The OpenAPI 3.1 description of /api/v1, served at /api/v1/openapi.json.
    static let text = #"""
{
 "openapi": "3.1.0",
 "info": {
  "title": "FairFuel family app API",
  "version": "1.0.0",
  "description": "The data and actions of the family's web app (fairfuel web). Log in with POST /api/v1/login; every change carries the session's csrf_token in X-CSRF-Token. Money in minor units (cost_cents)."
 },
 "security": [
  {
   "session": []
  }
 ],
 "paths": {
  "/api/v1/login": {
   "post": {
    "summary": "Log in (starts a session cookie)",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Session"
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "429": {
      "description": "Too many failed logins from this address",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "username",
         "password"
        ],
        "properties": {
         "username": {
          "type": "string"
         },
         "password": {
          "type": "string"
         }
        }
       }
      }
     }
    },
    "security": []
   }
  },
  "/api/v1/logout": {
   "post": {
    "summary": "Log out",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/session": {
   "get": {
    "summary": "Who is logged in, and the CSRF token changes carry",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Session"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/home": {
   "get": {
    "summary": "The home page's figures",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "vehicle",
          "month_drivers",
          "totals",
          "untracked"
         ],
         "properties": {
          "vehicle": {
           "type": "string"
          },
          "currency": {
           "type": "string"
          },
          "month": {
           "type": [
            "string",
            "null"
           ]
          },
          "month_drivers": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "driver": {
              "type": "string"
             },
             "distance_km": {
              "type": "number"
             },
             "fuel_l": {
              "type": "number"
             },
             "cost_cents": {
              "type": "integer"
             }
            }
           }
          },
          "totals": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/DriverTotal"
           }
          },
          "open_since_utc": {
           "type": [
            "string",
            "null"
           ]
          },
          "untracked": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/Trip"
           }
          },
          "now": {
           "type": "object",
           "required": [
            "driving",
            "driver",
            "tank_l"
           ],
           "properties": {
            "driving": {
             "enum": [
              "parked",
              "driven",
              "not_known"
             ]
            },
            "driver": {
             "type": [
              "string",
              "null"
             ]
            },
            "tank_l": {
             "type": [
              "number",
              "null"
             ]
            },
            "tank_capacity_l": {
             "type": "number"
            }
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/trips": {
   "get": {
    "summary": "Trips, oldest first",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "array",
         "items": {
          "$ref": "#/components/schemas/Trip"
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "driver",
      "in": "query",
      "schema": {
       "type": "string"
      },
      "description": "A driver's name, or (untracked)"
     },
     {
      "name": "month",
      "in": "query",
      "schema": {
       "type": "string",
       "pattern": "^[0-9]{4}-[0-9]{2}$"
      }
     }
    ]
   }
  },
  "/api/v1/trips/{id}": {
   "get": {
    "summary": "A trip and its track",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "trip",
          "track"
         ],
         "properties": {
          "trip": {
           "$ref": "#/components/schemas/Trip"
          },
          "track": {
           "type": "array",
           "items": {
            "type": "object",
            "properties": {
             "at_utc": {
              "type": [
               "string",
               "null"
              ]
             },
             "lat": {
              "type": "number"
             },
             "lon": {
              "type": "number"
             },
             "speed_kmh": {
              "type": "number"
             }
            }
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "pattern": "^u?[0-9]+$"
      },
      "description": "A trip (42) or untracked driving (u7)"
     }
    ]
   }
  },
  "/api/v1/trips/{id}/assign": {
   "post": {
    "summary": "Give a trip to a driver (a driver-role user: only their own untracked driving)",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "trips",
          "bills"
         ],
         "properties": {
          "trips": {
           "type": "array",
           "items": {
            "type": "object"
           }
          },
          "bills": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/BillChange"
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Needs confirmation (send confirm: true)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "Refused by the book's rules",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "driver"
        ],
        "properties": {
         "driver": {
          "type": "string"
         },
         "confirm": {
          "type": "boolean"
         }
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "pattern": "^u?[0-9]+$"
      },
      "description": "A trip (42) or untracked driving (u7)"
     }
    ],
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/trips/{id}/delete": {
   "post": {
    "summary": "Delete a trip (family); its fuel stays as untracked driving",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "deleted",
          "bills"
         ],
         "properties": {
          "deleted": {
           "type": "string"
          },
          "driver": {
           "type": [
            "string",
            "null"
           ]
          },
          "untracked": {
           "type": "array",
           "items": {
            "type": "string"
           }
          },
          "bills": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/BillChange"
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Needs confirmation (send confirm: true)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "Refused by the book's rules",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "confirm": {
          "type": "boolean"
         }
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "string",
       "pattern": "^u?[0-9]+$"
      },
      "description": "A trip (42) or untracked driving (u7)"
     }
    ],
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/refuels": {
   "get": {
    "summary": "The fuel log, oldest first",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "array",
         "items": {
          "$ref": "#/components/schemas/Refuel"
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    }
   },
   "post": {
    "summary": "Record a refuel now",
    "responses": {
     "201": {
      "description": "Recorded",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "id",
          "bills"
         ],
         "properties": {
          "id": {
           "type": "integer"
          },
          "bills": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/BillChange"
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Needs confirmation (send confirm: true)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "Refused by the book's rules",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "liters",
         "cost"
        ],
        "properties": {
         "liters": {
          "type": "number",
          "exclusiveMinimum": 0
         },
         "cost": {
          "type": "string",
          "pattern": "^[0-9]+([.,][0-9]{1,3})?$"
         },
         "full": {
          "type": "boolean"
         },
         "odometer_km": {
          "type": "number",
          "minimum": 0
         },
         "station": {
          "type": "string",
          "maxLength": 200
         },
         "note": {
          "type": "string",
          "maxLength": 200
         },
         "confirm": {
          "type": "boolean"
         }
        }
       }
      }
     }
    },
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/refuels/{id}/edit": {
   "post": {
    "summary": "Correct a refuel (family): what is given changes; bills re-split",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/RefuelChange"
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Needs confirmation (send confirm: true)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "Refused by the book's rules",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "liters": {
          "type": "number",
          "exclusiveMinimum": 0
         },
         "cost": {
          "type": "string",
          "pattern": "^[0-9]+([.,][0-9]{1,3})?$"
         },
         "full": {
          "type": "boolean"
         },
         "odometer_km": {
          "type": "number",
          "minimum": 0
         },
         "confirm": {
          "type": "boolean"
         }
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "integer",
       "minimum": 1
      }
     }
    ],
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/refuels/{id}/remove": {
   "post": {
    "summary": "Remove a refuel (family); every split recomputed",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/RefuelChange"
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Needs confirmation (send confirm: true)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "Refused by the book's rules",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "properties": {
         "confirm": {
          "type": "boolean"
         }
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "integer",
       "minimum": 1
      }
     }
    ],
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/bills": {
   "get": {
    "summary": "Every bill's split",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "array",
         "items": {
          "$ref": "#/components/schemas/Bill"
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/bills/{id}/settle": {
   "post": {
    "summary": "Settle a bill (family)",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "id",
          "settled"
         ],
         "properties": {
          "id": {
           "type": "integer"
          },
          "settled": {
           "type": "boolean"
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Needs confirmation (send confirm: true)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "Refused by the book's rules",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "integer",
       "minimum": 1
      }
     }
    ],
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/bills/{id}/unsettle": {
   "post": {
    "summary": "Unsettle a bill (family): re-split from the data",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "id",
          "unsettled",
          "bills"
         ],
         "properties": {
          "id": {
           "type": "integer"
          },
          "unsettled": {
           "type": "boolean"
          },
          "bills": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/BillChange"
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Needs confirmation (send confirm: true)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "Refused by the book's rules",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "integer",
       "minimum": 1
      }
     }
    ],
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/drivers": {
   "get": {
    "summary": "The current drivers",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "array",
         "items": {
          "$ref": "#/components/schemas/Driver"
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    }
   },
   "post": {
    "summary": "Add a driver (family), without tag or beacon: the car learns them (drivers/{id}/learn)",
    "responses": {
     "201": {
      "description": "Added",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Driver"
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Needs confirmation (send confirm: true)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "Refused by the book's rules",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "name"
        ],
        "properties": {
         "name": {
          "type": "string"
         }
        }
       }
      }
     }
    },
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/drivers/learning": {
   "get": {
    "summary": "What the car waits for (a tap, a beacon), or how the last learning ended",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Learning"
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    }
   }
  },
  "/api/v1/drivers/{id}/learn": {
   "post": {
    "summary": "Ask the car to learn the driver's tag (a tap) or beacon (family; needs the running service)",
    "responses": {
     "202": {
      "description": "The car waits",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Learning"
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Needs confirmation (send confirm: true)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "Refused by the book's rules",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "step"
        ],
        "properties": {
         "step": {
          "enum": [
           "tag",
           "beacon"
          ]
         }
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "integer",
       "minimum": 1
      }
     }
    ],
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/drivers/{id}/rename": {
   "post": {
    "summary": "Rename a driver (family), history included",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Driver"
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Needs confirmation (send confirm: true)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "Refused by the book's rules",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "name"
        ],
        "properties": {
         "name": {
          "type": "string"
         }
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "integer",
       "minimum": 1
      }
     }
    ],
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/drivers/{id}/remove": {
   "post": {
    "summary": "Remove a driver (family); their trips keep their name",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Driver"
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "403": {
      "description": "Not allowed (role, CSRF token, another site)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "409": {
      "description": "Needs confirmation (send confirm: true)",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "description": "Too large",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "Refused by the book's rules",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "integer",
       "minimum": 1
      }
     }
    ],
    "security": [
     {
      "session": [],
      "csrf": []
     }
    ]
   }
  },
  "/api/v1/family": {
   "get": {
    "summary": "The hub's family view of every car, read-only (fairfuel web --hub-db; 404 on a car)",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "read_only",
          "people",
          "month",
          "all_time",
          "cars"
         ],
         "properties": {
          "read_only": {
           "type": "boolean"
          },
          "note": {
           "type": "string"
          },
          "people": {
           "type": "array",
           "items": {
            "type": "object",
            "description": "What `fairfuel family --json` prints",
            "properties": {
             "driver": {
              "type": "string"
             },
             "driver_uuid": {
              "type": [
               "string",
               "null"
              ]
             },
             "cars": {
              "type": "array",
              "items": {
               "type": "string"
              }
             },
             "trips": {
              "type": "integer"
             },
             "distance_km": {
              "type": "number"
             },
             "fuel_l": {
              "type": "number"
             },
             "owes": {
              "type": "array",
              "items": {
               "type": "object",
               "properties": {
                "currency": {
                 "type": "string"
                },
                "minor": {
                 "type": "integer"
                },
                "text": {
                 "type": "string"
                }
               }
              }
             }
            }
           }
          },
          "month": {
           "$ref": "#/components/schemas/Summary"
          },
          "all_time": {
           "$ref": "#/components/schemas/Summary"
          },
          "cars": {
           "type": "array",
           "items": {
            "type": "object",
            "required": [
             "car"
            ],
            "properties": {
             "car": {
              "type": "string"
             },
             "vehicle_id": {
              "type": [
               "string",
               "null"
              ]
             },
             "month": {
              "$ref": "#/components/schemas/Summary"
             },
             "all_time": {
              "$ref": "#/components/schemas/Summary"
             },
             "latest_trips": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/Trip"
              }
             },
             "latest_refuels": {
              "type": "array",
              "items": {
               "$ref": "#/components/schemas/Refuel"
              }
             }
            }
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "Bad input",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "401": {
      "description": "No session",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "Not found",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "The store cannot do it now",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "parameters": [
     {
      "name": "month",
      "in": "query",
      "schema": {
       "type": "string",
       "pattern": "^[0-9]{4}-[0-9]{2}$"
      },
      "description": "YYYY-MM on the family's calendar; default: this month"
     }
    ]
   }
  },
  "/api/v1/openapi.json": {
   "get": {
    "summary": "This document",
    "security": [],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object"
        }
       }
      }
     }
    }
   }
  }
 },
 "components": {
  "schemas": {
   "Error": {
    "type": "object",
    "required": [
     "error",
     "message"
    ],
    "properties": {
     "error": {
      "type": "string"
     },
     "message": {
      "type": "string"
     }
    }
   },
   "Session": {
    "type": "object",
    "required": [
     "user",
     "role",
     "csrf_token"
    ],
    "properties": {
     "user": {
      "type": "string"
     },
     "role": {
      "enum": [
       "family",
       "driver"
      ]
     },
     "csrf_token": {
      "type": "string"
     }
    }
   },
   "Trip": {
    "type": "object",
    "required": [
     "id",
     "driver",
     "distance_km",
     "fuel_l"
    ],
    "properties": {
     "id": {
      "type": [
       "integer",
       "string"
      ]
     },
     "driver": {
      "type": [
       "string",
       "null"
      ]
     },
     "start_utc": {
      "type": [
       "string",
       "null"
      ]
     },
     "end_utc": {
      "type": [
       "string",
       "null"
      ]
     },
     "distance_km": {
      "type": "number"
     },
     "fuel_l": {
      "type": "number"
     },
     "duration_s": {
      "type": "integer"
     }
    }
   },
   "BillChange": {
    "type": "object",
    "required": [
     "refuel_id",
     "shares"
    ],
    "properties": {
     "refuel_id": {
      "type": "integer"
     },
     "at_utc": {
      "type": [
       "string",
       "null"
      ]
     },
     "cost_cents": {
      "type": "integer"
     },
     "kept_settled": {
      "type": "boolean"
     },
     "shares": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "driver": {
         "type": [
          "string",
          "null"
         ]
        },
        "before_cents": {
         "type": [
          "integer",
          "null"
         ]
        },
        "after_cents": {
         "type": [
          "integer",
          "null"
         ]
        }
       }
      }
     }
    }
   },
   "Refuel": {
    "type": "object",
    "required": [
     "id",
     "at_utc",
     "liters",
     "cost_cents",
     "full"
    ],
    "properties": {
     "id": {
      "type": "integer"
     },
     "at_utc": {
      "type": [
       "string",
       "null"
      ]
     },
     "liters": {
      "type": "number"
     },
     "cost_cents": {
      "type": "integer"
     },
     "currency": {
      "type": [
       "string",
       "null"
      ]
     },
     "full": {
      "type": "boolean"
     },
     "odometer_km": {
      "type": [
       "number",
       "null"
      ]
     },
     "station": {
      "type": [
       "string",
       "null"
      ]
     },
     "note": {
      "type": [
       "string",
       "null"
      ]
     },
     "settled_utc": {
      "type": [
       "string",
       "null"
      ]
     }
    }
   },
   "Bill": {
    "type": "object",
    "required": [
     "id",
     "cost_cents",
     "shares"
    ],
    "properties": {
     "id": {
      "type": "integer"
     },
     "at_utc": {
      "type": [
       "string",
       "null"
      ]
     },
     "liters": {
      "type": "number"
     },
     "cost_cents": {
      "type": "integer"
     },
     "full": {
      "type": "boolean"
     },
     "settled_utc": {
      "type": [
       "string",
       "null"
      ]
     },
     "shares": {
      "type": "array",
      "items": {
       "type": "object",
       "required": [
        "cost_cents"
       ],
       "properties": {
        "driver": {
         "type": [
          "string",
          "null"
         ]
        },
        "fuel_l": {
         "type": "number"
        },
        "cost_cents": {
         "type": "integer"
        }
       }
      }
     }
    }
   },
   "DriverTotal": {
    "type": "object",
    "required": [
     "driver",
     "cost_cents"
    ],
    "properties": {
     "driver": {
      "type": [
       "string",
       "null"
      ]
     },
     "fuel_l": {
      "type": "number"
     },
     "cost_cents": {
      "type": "integer"
     },
     "refuels": {
      "type": "integer"
     }
    }
   },
   "RefuelChange": {
    "type": "object",
    "required": [
     "id",
     "bills"
    ],
    "properties": {
     "id": {
      "type": "integer"
     },
     "bills": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/BillChange"
      }
     }
    }
   },
   "Learning": {
    "type": "object",
    "required": [
     "state"
    ],
    "properties": {
     "state": {
      "enum": [
       "none",
       "waiting",
       "done",
       "failed"
      ]
     },
     "driver_id": {
      "type": "integer"
     },
     "driver": {
      "type": "string"
     },
     "step": {
      "enum": [
       "tag",
       "beacon"
      ]
     },
     "seconds_left": {
      "type": "integer"
     },
     "message": {
      "type": [
       "string",
       "null"
      ]
     }
    }
   },
   "Summary": {
    "type": "object",
    "required": [
     "drivers"
    ],
    "description": "What `fairfuel summary --json` prints",
    "properties": {
     "month": {
      "type": [
       "string",
       "null"
      ]
     },
     "cars": {
      "type": "array",
      "items": {
       "type": "string"
      }
     },
     "drivers": {
      "type": "array",
      "items": {
       "type": "object",
       "properties": {
        "driver": {
         "type": "string"
        },
        "trips": {
         "type": "integer"
        },
        "distance_km": {
         "type": "number"
        },
        "fuel_l": {
         "type": "number"
        },
        "cost_cents": {
         "type": "integer"
        }
       }
      }
     },
     "bills_cents": {
      "type": "integer"
     },
     "untracked_cost_cents": {
      "type": "integer"
     }
    }
   },
   "Driver": {
    "type": "object",
    "required": [
     "id",
     "name"
    ],
    "properties": {
     "id": {
      "type": "integer"
     },
     "name": {
      "type": "string"
     },
     "tags": {
      "type": "integer"
     },
     "beacons": {
      "type": "integer"
     }
    }
   }
  },
  "securitySchemes": {
   "session": {
    "type": "apiKey",
    "in": "cookie",
    "name": "fairfuel_session"
   },
   "csrf": {
    "type": "apiKey",
    "in": "header",
    "name": "X-CSRF-Token"
   }
  }
 }
}
"""#
}
