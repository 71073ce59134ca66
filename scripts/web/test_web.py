"""The family's web app in a real browser and against its OpenAPI document (scripts/test-web.sh).

Results are read through the CLI (`fairfuel ... --json`) and the API, never the database file."""
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest

FAIRFUEL = os.environ.get("FAIRFUEL", ".build/debug/fairfuel")
SCREENSHOTS = os.environ.get("WEB_SCREENSHOTS", ".build-web/screenshots")
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FAMILY = ("mum", "family-secret-1")
DRIVER = ("cara", "driver-secret-1")
VIEWPORTS = {"phone": (390, 844), "desktop": (1280, 800)}


def cli(*arguments, stdin=None):
    result = subprocess.run([FAIRFUEL, *arguments], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, f"fairfuel {' '.join(arguments)}: {result.stderr}"
    return result.stdout


def cli_json(*arguments):
    return json.loads(cli(*arguments))


@pytest.fixture(scope="module")
def store():
    """The demo's family week, a replayed drive nobody tapped in for (untracked driving), two web users."""
    directory = tempfile.mkdtemp(prefix="fairfuel-web-test-")
    cli("demo", "--keep", directory + "/demo", "--quiet")
    db = directory + "/demo/fairfuel.db"
    if not cli_json("trips", "--untracked", "--json", "--db", db):
        cli("replay", "samples/drive-20s.ffcap", "--db", db)
    assert cli_json("trips", "--untracked", "--json", "--db", db), "the store has no untracked driving to give"
    cli("web", "user", "add", FAMILY[0], "--role", "family", "--db", db, stdin=FAMILY[1] + "\n")
    cli("web", "user", "add", DRIVER[0], "--role", "driver", "--db", db, stdin=DRIVER[1] + "\n")
    yield db
    shutil.rmtree(directory, ignore_errors=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, db, control=None, hub=None):
        """`fairfuel web` on the car's store `db`; with `hub`, the hub's family view of that database (`db`: its users)."""
        self.port = free_port()
        self.process = subprocess.Popen([FAIRFUEL, "web", "--db", db, "--listen", f"127.0.0.1:{self.port}", *(["--hub-db", hub] if hub else [])],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                                        env={**os.environ, "FAIRFUEL_CONTROL": control or db + ".no-control-socket"})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                assert self.process.poll() is None, self.process.stderr.read()
                time.sleep(0.1)
        raise AssertionError("fairfuel web did not start listening within 30 s")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def stop(self):
        """SIGTERM: the server shuts down and exits 0."""
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=30)
        assert code == 0, f"fairfuel web exited {code} on SIGTERM: {self.process.stderr.read()}"


@pytest.fixture(scope="module")
def server(store):
    server = Server(store)
    yield server
    server.stop()


def request(server, method, path, body=None, headers=None, source="127.0.0.1"):
    """One HTTP request from `source` (any loopback address: the app limits loopback clients' logins by name, as behind the socket proxy)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30, source_address=(source, 0))
    headers = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body)
        headers["Content-Type"] = "application/json"
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    text = response.read().decode()
    cookie = response.getheader("Set-Cookie") or ""
    connection.close()
    return response.status, text, cookie


def api_login(server, user, source="127.0.0.1"):
    status, text, cookie = request(server, "POST", "/api/v1/login", {"username": user[0], "password": user[1]}, source=source)
    assert status == 200, text
    return {"Cookie": cookie.split(";")[0], "X-CSRF-Token": json.loads(text)["csrf_token"]}


@pytest.fixture(scope="module")
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    except Exception as error:  # noqa: BLE001 - any failure to start the browser is the one reason to skip
        pytest.skip(f"chromium cannot start here ({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}); "
                    "the browser tests did not run")
    yield driver
    driver.quit()


def log_in(browser, server, user, landing="/"):
    from selenium.webdriver.common.by import By
    browser.delete_all_cookies()
    browser.get(server.url + "/login")
    name = browser.find_element(By.NAME, "username")
    password = browser.find_element(By.NAME, "password")
    assert name.get_attribute("autocomplete") == "username"
    assert password.get_attribute("autocomplete") == "current-password"
    name.send_keys(user[0])
    password.send_keys(user[1])
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_for_page(browser, lambda b: b.current_url.rstrip("/") == (server.url + landing).rstrip("/"))


def wait_for_page(browser, condition):
    """Until the page a click led to is there (a click returns before the navigation ends)."""
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(browser, 20).until(condition, message=browser.page_source[:500])


def shoot(browser, viewport, name):
    os.makedirs(SCREENSHOTS, exist_ok=True)
    width, height = VIEWPORTS[viewport]
    browser.set_window_size(width, height)
    # The whole page, not only what fits the window.
    full = browser.execute_script("return Math.max(document.body.scrollHeight, %d)" % height)
    browser.set_window_size(width, min(full, 4000))
    browser.save_screenshot(os.path.join(SCREENSHOTS, f"{name}-{viewport}.png"))
    browser.set_window_size(width, height)
    # Usable at a phone's width: nothing but tables (which scroll in their card) wider than the window.
    overflow = browser.execute_script("return document.documentElement.scrollWidth")
    assert overflow <= width + 1, f"{name} at {viewport} is {overflow} px wide"


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_every_page_in_a_browser(browser, server, store, viewport):
    from selenium.webdriver.common.by import By
    browser.set_window_size(*VIEWPORTS[viewport])
    browser.delete_all_cookies()
    browser.get(server.url + "/login")
    shoot(browser, viewport, "login")
    log_in(browser, server, FAMILY)

    # The home page's totals per driver are `fairfuel split --by driver --json`'s, to the cent.
    expected = {(row["driver"] or "(untracked)") if not row.get("before_tracking") else "(before tracking)": row["cost_cents"]
                for row in cli_json("split", "--by", "driver", "--json", "--db", store)}
    shown = {row.get_attribute("data-driver"): int(row.get_attribute("data-cost-cents"))
             for row in browser.find_elements(By.CSS_SELECTOR, "#totals tr[data-driver]")}
    assert shown == expected and len(shown) >= 2
    if viewport == "phone":
        # What a phone shows first, for the README (docs/web-home-phone.png is a copy of it).
        browser.save_screenshot(os.path.join(SCREENSHOTS, "readme-home-phone.png"))
    shoot(browser, viewport, "home")

    trips = cli_json("trips", "--json", "--db", store)
    for path, name in (("/trips", "trips"), (f"/trips/{trips[0]['id']}", "trip"), ("/refuels/new", "refuel"),
                       ("/bills", "bills"), ("/charts", "charts"), ("/drivers", "drivers"),
                       (f"/refuels/{cli_json('refuel', 'list', '--json', '--db', store)[-1]['id']}/edit", "refuel-edit")):
        browser.get(server.url + path)
        assert "Not done" not in browser.title, browser.page_source[:500]
        shoot(browser, viewport, name)


def test_a_refuel_entered_in_the_form_is_in_the_fuel_log_and_split(browser, server, store):
    from selenium.webdriver.common.by import By
    log_in(browser, server, FAMILY)
    before = cli_json("refuel", "list", "--json", "--db", store)
    # A price near the car's usual one, so that no confirmation is asked.
    price = sorted(r["cost_cents"] / r["liters"] for r in before)[len(before) // 2] if before else 180
    liters = 31.25
    cost = "%.2f" % (liters * price / 100)
    browser.get(server.url + "/refuels/new")
    for field, value in (("liters", str(liters)), ("cost", cost), ("odometer_km", ""), ("station", "Selenium Station"), ("note", "from the form")):
        if value:
            browser.find_element(By.NAME, field).send_keys(value)
    assert browser.find_element(By.NAME, "full").is_selected()
    assert browser.find_element(By.NAME, "receipt").get_attribute("type") == "file"
    browser.find_element(By.CSS_SELECTOR, "form[action='/refuels'] button[type=submit]").click()
    wait_for_page(browser, lambda b: "Refuel saved" in b.title)
    shoot(browser, "phone", "refuel-saved")
    after = cli_json("refuel", "list", "--json", "--db", store)
    added = [r for r in after if r["station"] == "Selenium Station"]
    assert len(added) == 1 and added[0]["cost_cents"] == round(float(cost) * 100) and added[0]["note"] == "from the form"
    split = [s for s in cli_json("split", "--json", "--db", store) if s["id"] == added[0]["id"]]
    assert split and sum(share["cost_cents"] for share in split[0]["shares"]) == added[0]["cost_cents"]


def test_an_untracked_trip_given_in_the_browser_is_the_drivers(browser, server, store):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    log_in(browser, server, FAMILY)
    untracked = cli_json("trips", "--untracked", "--json", "--db", store)[0]["id"]
    browser.get(server.url + f"/trips/{untracked}")
    choice = Select(browser.find_element(By.NAME, "driver"))
    driver = choice.options[0].text
    choice.select_by_visible_text(driver)
    browser.find_element(By.CSS_SELECTOR, f"form[action='/trips/{untracked}/assign'] button[type=submit]").click()
    wait_for_page(browser, lambda b: "Bills before and after" in b.page_source)
    page = browser.page_source
    shoot(browser, "phone", "trip-given")
    session = int(page.split("now trip ")[1].split("<")[0].split(";")[0].strip())
    trips = cli_json("trips", "--json", "--db", store)
    assert any(t["id"] == session and t["driver"] == driver for t in trips)
    assert not any(t["id"] == untracked for t in trips)


def test_a_driver_cannot_settle_or_delete(browser, server, store):
    from selenium.webdriver.common.by import By
    log_in(browser, server, DRIVER)
    browser.get(server.url + "/bills")
    assert not browser.find_elements(By.XPATH, "//button[text()='Settle']")
    shoot(browser, "phone", "bills-driver")
    trip = cli_json("trips", "--json", "--db", store)[0]["id"]
    browser.get(server.url + f"/trips/{trip}")
    assert not browser.find_elements(By.XPATH, "//button[text()='Delete the trip']")
    headers = api_login(server, DRIVER)
    bill = cli_json("refuel", "list", "--json", "--db", store)[-1]["id"]
    assert request(server, "POST", f"/api/v1/bills/{bill}/settle", headers=headers)[0] == 403
    assert request(server, "POST", f"/api/v1/trips/{trip}/delete", {}, headers=headers)[0] == 403
    assert cli_json("refuel", "list", "--json", "--db", store)[-1]["settled_utc"] is None
    assert any(t["id"] == trip for t in cli_json("trips", "--json", "--db", store))


def test_logins_are_limited_per_name_without_locking_out_another_user(server):
    # Behind the package's socket proxy every phone comes from 127.0.0.1: the limit counts by name.
    # The driver is the one guessed at (the tests after this one log in as the family).
    for attempt in range(10):
        assert request(server, "POST", "/api/v1/login", {"username": DRIVER[0], "password": f"wrong {attempt}"}, source="127.0.0.2")[0] == 401
    status, text, _ = request(server, "POST", "/api/v1/login", {"username": DRIVER[0], "password": DRIVER[1]}, source="127.0.0.3")
    assert status == 429, text
    # Another user, from the attacker's own address, still gets in.
    assert request(server, "POST", "/api/v1/login", {"username": FAMILY[0], "password": FAMILY[1]}, source="127.0.0.2")[0] == 200


def test_without_a_session_the_api_is_401_and_a_foreign_form_is_refused(server):
    for method, path in (("GET", "/api/v1/home"), ("GET", "/api/v1/trips"), ("GET", "/api/v1/bills"), ("POST", "/api/v1/refuels")):
        assert request(server, method, path, {} if method == "POST" else None, source="127.0.0.4")[0] == 401
    headers = api_login(server, FAMILY, source="127.0.0.4")
    cookie_only = {"Cookie": headers["Cookie"]}
    assert request(server, "POST", "/api/v1/refuels", {"liters": 20, "cost": "30.00"}, headers=cookie_only, source="127.0.0.4")[0] == 403
    status, _, _ = request(server, "POST", "/api/v1/refuels", {"liters": 20, "cost": "30.00"},
                           headers={**headers, "Origin": "http://evil.example"}, source="127.0.0.4")
    assert status == 403


def schemathesis(server, directory, source, operations=(), examples=None):
    """Schemathesis against the served document with a family session (`operations`: only these
    paths, a regular expression; logout is left out, it would end the session)."""
    headers = api_login(server, FAMILY, source=source)
    chosen = ["--include-path-regex", operations] if operations else []
    result = subprocess.run(
        ["st", "run", server.url + "/api/v1/openapi.json", "--url", server.url,
         "-H", "Cookie: " + headers["Cookie"], "-H", "X-CSRF-Token: " + headers["X-CSRF-Token"],
         "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
         "--exclude-path", "/api/v1/logout", *chosen,
         "--max-examples", examples or os.environ.get("WEB_SCHEMATHESIS_EXAMPLES", "40"), "--seed", "1"],
        capture_output=True, text=True, timeout=900, cwd=directory)
    print(result.stdout[-4000:])
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


def test_the_api_conforms_to_its_document(store):
    """Schemathesis on a copy of the store (it settles, renames and deletes at random)."""
    directory = tempfile.mkdtemp(prefix="fairfuel-web-st-")
    db = directory + "/fairfuel.db"
    shutil.copy(store, db)
    server = Server(db)
    try:
        schemathesis(server, directory, "127.0.0.5")
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def hub():
    """A hub's database as a hub makes one: `fairfuel fleet-sim` (three cars, two days) through a loopback
    Mosquitto into `fairfuel hub --db`; and a users file with the family user."""
    if not shutil.which("mosquitto"):
        pytest.skip("mosquitto is missing (scripts/install-deps.sh installs it): the hub tests did not run")
    directory = tempfile.mkdtemp(prefix="fairfuel-web-hub-")
    port = free_port()
    with open(directory + "/mosquitto.conf", "w") as conf:
        conf.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                   + ("user root\n" if os.getuid() == 0 else ""))
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": ROOT}
    broker = subprocess.Popen(["mosquitto", "-c", directory + "/mosquitto.conf"], **quiet)
    url, db = f"mqtt://127.0.0.1:{port}", directory + "/hub.db"
    try:
        time.sleep(0.5)
        collector = subprocess.Popen([FAIRFUEL, "hub", "--url", url, "--dir", directory + "/hub", "--db", db, "--until-idle", "3"], **quiet)
        time.sleep(1)
        cli("fleet-sim", "--cars", "3", "--days", "2", "--url", url, "--dir", directory + "/cars")
        assert collector.wait(timeout=120) == 0
    finally:
        broker.terminate()
        broker.wait(timeout=30)
    users = directory + "/users.db"
    cli("web", "user", "add", FAMILY[0], "--role", "family", "--create", "--db", users, stdin=FAMILY[1] + "\n")
    server = Server(users, hub=db)
    yield server, db, directory
    server.stop()
    shutil.rmtree(directory, ignore_errors=True)


def test_the_hubs_family_view_on_a_phone(browser, hub):
    """Every person's totals on /family are `fairfuel family --json`'s over the same database."""
    from selenium.webdriver.common.by import By
    server, db, _ = hub
    browser.set_window_size(*VIEWPORTS["phone"])
    log_in(browser, server, FAMILY, landing="/family")
    people = cli_json("family", "--json", db)
    rows = {}
    for row in browser.find_elements(By.CSS_SELECTOR, "#people tbody tr"):
        cells = [cell.get_attribute("textContent") for cell in row.find_elements(By.TAG_NAME, "td")]
        rows[cells[0]] = cells
    # `family` also lists what no person pays (the first fill-up's fuel from before tracking): not a person's row.
    people = [p for p in people if not p["driver"].startswith("(")]
    assert len(people) >= 2 and len(rows) == len(people), (people, sorted(rows))
    for person in people:
        cells = rows.get(person["driver"])
        assert cells, f"{person['driver']} is not on the page: {sorted(rows)}"
        assert cells[4:6] == ["%.1f" % person["distance_km"], "%.2f" % person["fuel_l"]], (person, cells)
        assert ([o["text"] for o in person["owes"]] or ["0.00"]) == [cells[6]], (person, cells)
    assert "read-only" in browser.page_source
    shoot(browser, "phone", "family")
    shoot(browser, "desktop", "family")


def test_the_hubs_api_conforms_to_its_document(hub):
    """Schemathesis over what the hub serves of the document: the family view and the session."""
    server, _, directory = hub
    schemathesis(server, directory, "127.0.0.6", operations="^/api/v1/(family|session|login)$", examples="20")


def test_the_board_profiles_web_table_and_the_idle_exit(store):
    """[web] gives the address and the idle exit: after idle_exit_s without a request it exits 0."""
    directory = tempfile.mkdtemp(prefix="fairfuel-web-idle-")
    port = free_port()
    with open(directory + "/board.toml", "w") as board:
        board.write(f'[web]\nhost = "127.0.0.1"\nport = {port}\nidle_exit_s = 2\n')
    process = subprocess.Popen([FAIRFUEL, "web", "--db", store], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               env={**os.environ, "FAIRFUEL_BOARD": directory + "/board.toml", "FAIRFUEL_CONTROL": directory + "/none"})
    try:
        assert f"127.0.0.1:{port}" in process.stdout.readline()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/login")
        assert connection.getresponse().status == 200
        connection.close()
        started = time.monotonic()
        assert process.wait(timeout=20) == 0, process.stderr.read()
        assert 1.5 <= time.monotonic() - started <= 10
    finally:
        if process.poll() is None:
            process.kill()
        shutil.rmtree(directory, ignore_errors=True)


# Dora's fob is tapped on the virtual MCU every 4 s for a while (the tap the car learns, whenever the
# page asks for it), then she drives off: her first session.
ENROLMENT_SCENARIO = """title web enrolment
seed 5
start 2026-03-02 09:00
place home 48.12000 11.56000
vehicle at home
driver Dora tag ntag215 04:D0:4A:11:22:33:44
day 1 mon
%s
09:01:20 trip Dora urban 2 km
09:06:00 end
""" % "\n".join("09:%02d:%02d tap Dora" % divmod(second, 60) for second in range(12, 72, 4))


def test_a_driver_added_by_a_tap_at_the_car_drives_within_three_minutes(browser):
    """`fairfuel run` on the virtual MCU's pseudo-terminal, the web app on its control socket: a new
    driver is added on /drivers, the page says tap now and shows the tap bound, then her first session."""
    from selenium.webdriver.common.by import By
    directory = tempfile.mkdtemp(prefix="fairfuel-web-tap-")
    db, control, link = directory + "/fairfuel.db", directory + "/control.sock", directory + "/mcu"
    cli("provision", "driver", "add", "Anna", "--db", db)
    cli("web", "user", "add", FAMILY[0], "--role", "family", "--db", db, stdin=FAMILY[1] + "\n")
    with open(directory + "/enrol.scenario", "w") as scenario:
        scenario.write(ENROLMENT_SCENARIO)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": ROOT}
    sim = subprocess.Popen([FAIRFUEL, "sim", directory + "/enrol.scenario", "--link", link, "--quiet"], **quiet)
    service = server = None
    try:
        deadline = time.monotonic() + 20
        while not os.path.exists(link) and time.monotonic() < deadline:
            time.sleep(0.05)
        service = subprocess.Popen([FAIRFUEL, "run", "--port", link, "--control", control, "--db", db], **quiet)
        server = Server(db, control=control)
        log_in(browser, server, FAMILY)
        opened = time.monotonic()
        browser.get(server.url + "/drivers")
        browser.find_element(By.NAME, "name").send_keys("Dora")
        browser.find_element(By.CSS_SELECTOR, "form[action='/drivers/add'] button[type=submit]").click()
        wait_for_page(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#learning[data-state=waiting]"))
        assert "Tap Dora's fob on the dongle now" in browser.page_source
        shoot(browser, "phone", "driver-tap-now")
        from selenium.webdriver.support.ui import WebDriverWait
        WebDriverWait(browser, 100, poll_frequency=0.5).until(
            lambda b: b.find_elements(By.CSS_SELECTOR, "#learning[data-state=done], #learning[data-state=failed]"))
        state = browser.find_element(By.ID, "learning")
        assert state.get_attribute("data-state") == "done", state.text
        assert "04:D0:4A:11:22:33:44" in state.text
        bound = time.monotonic() - opened
        shoot(browser, "phone", "driver-tap-bound")
        drivers = cli("provision", "driver", "list", "--db", db)
        assert "Dora\n\ttag uid:04:D0:4A:11:22:33:44" in drivers, drivers
        # Her first session: the running service drives with Dora (its status, through the control socket).
        first = None
        while time.monotonic() - opened < 240 and first is None:
            status = json.loads(cli("status", "--json", "--control", control))
            if status.get("driver") == "Dora" and status.get("session_state") == "ACTIVE":
                first = time.monotonic() - opened
            time.sleep(0.5)
        assert first is not None, "Dora never drove"
        # The home page says so, from the service's status.
        browser.get(server.url + "/")
        now = browser.find_element(By.ID, "now")
        assert (now.get_attribute("data-driving"), now.get_attribute("data-driver")) == ("driven", "Dora"), now.text
        assert "Being driven by Dora" in now.text
        shoot(browser, "phone", "home-driving")
        print(f"\nnew driver: page opened to tap bound {bound:.1f} s, to her first session {first:.1f} s "
              f"(the service opens it at her next tap; the scenario taps every 4 s from 12 s after the service opened the port)")
        assert first < 180
    finally:
        if server:
            server.stop()
        for process in (service, sim):
            if process and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=30)
        shutil.rmtree(directory, ignore_errors=True)
