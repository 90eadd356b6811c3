"""The console in a real browser: headless Chromium driven by Selenium against a collector
that `hermes demo --serve` filled, as a newcomer would meet it.

Run by scripts/console-browser-tests.sh (CI runs it). Each test leaves a screenshot in the
artifacts folder when it fails; with --screenshots DIR every page's screenshot is also kept
there (the ones docs/console.md shows).
"""

import argparse
import hashlib
import hmac
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ARGS = None
DEMO = None
WAIT = 15
MARKUP = '<script>window.hermesInjected = 1</script>"><img src=x onerror="window.hermesInjected = 2">'


class Demo:
    """`hermes demo --serve` on a free port: its console URL, sign-in and key, read from its output."""

    def __init__(self, hermes):
        self.hermes = hermes
        self.process = subprocess.Popen(
            [hermes, "demo", "--serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.output = []
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.output.append(line)
            console = re.search(r"(http://127\.0\.0\.1:\d+)/console\s+user (\S+), password (\S+)", line)
            if console:
                self.base, self.user, self.password = console.group(1), console.group(2), console.group(3)
            more = re.search(r"--key (\S+) --app-key (\S+)", line)
            if more:
                self.key, self.app_key = more.group(1), more.group(2)
                threading.Thread(target=self._drain, daemon=True).start()
                return
        self.stop()
        raise RuntimeError("hermes demo --serve did not print its console:\n" + "".join(self.output))

    def _drain(self):
        for line in self.process.stdout:
            self.output.append(line)

    def send_more(self):
        """Runs the demo's app once more against this collector; returns its JSON summary."""
        result = subprocess.run(
            [self.hermes, "demo", "--collector", self.base, "--key", self.key, "--app-key", self.app_key, "--json"],
            capture_output=True, text=True, timeout=120,
        )
        return json.loads(result.stdout.strip().splitlines()[-1])

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Receiver:
    """A webhook receiver on loopback that keeps what it was sent."""

    def __init__(self):
        received = self.received = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                received.append((dict(self.headers), body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/hook" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def api(path, method="GET", body=None, session=None, csrf=True):
    """A console API request outside the browser: (status, parsed body, headers)."""
    request = urllib.request.Request(DEMO.base + "/console/api" + path, method=method)
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    if session:
        request.add_header("Cookie", session["cookie"])
        if csrf:
            request.add_header("X-CSRF-Token", session["csrf"])
    try:
        with urllib.request.urlopen(request, data=data, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null"), response.headers
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text.startswith(b"{") else None, error.headers


def sign_in_api(user, password):
    status, body, headers = api("/sign-in", "POST", {"name": user, "password": password})
    assert status == 200, (status, body)
    return {"cookie": headers["Set-Cookie"].split(";")[0], "csrf": body["csrf"]}


class ConsoleTest(unittest.TestCase):
    driver = None

    @classmethod
    def setUpClass(cls):
        options = webdriver.ChromeOptions()
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
            options.add_argument(argument)
        cls.driver = webdriver.Chrome(options=options)
        cls.driver.set_page_load_timeout(30)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def run(self, result=None):
        failures = len(result.failures) + len(result.errors) if result else 0
        outcome = super().run(result)
        if result and len(result.failures) + len(result.errors) > failures:
            self.driver.save_screenshot(os.path.join(ARGS.artifacts, self._testMethodName + ".png"))
        return outcome

    # -- helpers ------------------------------------------------------------------------------

    def wait(self, condition, timeout=WAIT):
        return WebDriverWait(self.driver, timeout).until(condition)

    def find(self, selector, timeout=WAIT):
        return self.wait(EC.presence_of_element_located((By.CSS_SELECTOR, selector)), timeout)

    def visible(self, selector, timeout=WAIT):
        return self.wait(EC.visibility_of_element_located((By.CSS_SELECTOR, selector)), timeout)

    def open(self, hash_path):
        # From a blank page, so that the view is drawn afresh even when the address is the same.
        self.driver.get("about:blank")
        self.driver.get(DEMO.base + "/console#/" + hash_path)

    def shot(self, name):
        if ARGS.screenshots:
            time.sleep(0.3)
            self.driver.save_screenshot(os.path.join(ARGS.screenshots, name + ".png"))

    def sign_in(self, user, password):
        self.open("sign-in")
        form = self.find("#sign-in")
        self.driver.find_element(By.ID, "name").send_keys(user)
        self.driver.find_element(By.ID, "password").send_keys(password)
        form.find_element(By.ID, "sign-in-button").click()
        self.find("#who")
        self.wait(lambda d: user in d.find_element(By.ID, "who").text)

    def fetch(self, path, method="GET", body=None, csrf=True):
        """A request from the page itself, with its cookie: (status, body text)."""
        return self.driver.execute_async_script(
            """
            const [path, method, body, csrf, done] = arguments;
            const headers = {"Content-Type": "application/json"};
            if (csrf) {
              const session = await fetch("/console/api/session").then((r) => r.json()).catch(() => null);
              if (session) headers["X-CSRF-Token"] = session.csrf;
            }
            fetch("/console/api" + path, {method, headers, body: body === null ? undefined : JSON.stringify(body)})
              .then(async (r) => done([r.status, await r.text()])).catch((e) => done([0, String(e)]));
            """,
            path, method, body, csrf,
        )

    # -- tests, in order ------------------------------------------------------------------------

    def test_01_nothing_without_a_session(self):
        for path in ["/session", "/records", "/overview", "/performance", "/namespaces", "/users", "/crashes", "/alerts", "/sync",
                     "/records/1/1", "/tail"]:
            status, _, headers = api(path)
            self.assertEqual(status, 401, path)
            self.assertIn("script-src 'self'", headers["Content-Security-Policy"])
        status, _, _ = api("/namespaces/hermes", "PUT", {"configuration": {}, "etag": "absent"})
        self.assertEqual(status, 401)
        # A session without its CSRF token cannot change anything
        session = sign_in_api(DEMO.user, DEMO.password)
        status, body, _ = api("/namespaces/KX", "PUT", {"configuration": {"maxItem": 5}, "etag": "absent"}, session=session, csrf=False)
        self.assertEqual(status, 403, body)
        self.assertEqual(body["error"], "forbidden")
        # The page loads, and asks to sign in
        self.open("overview")
        self.find("#sign-in")
        self.shot("sign-in")

    def test_02_sign_in_and_overview(self):
        self.sign_in(DEMO.user, DEMO.password)
        self.open("overview")
        self.find(".cards")
        self.find("#delivery-health")
        self.assertIn("Overview", self.driver.find_element(By.TAG_NAME, "h1").text)
        self.shot("overview")

    def test_03_records_filter_by_user_and_meta(self):
        self.open("records")
        self.find("#records-body tr")
        self.shot("records")
        user_box = self.driver.find_element(By.ID, "filter-user")
        user_box.send_keys("demo-user-1")
        self.driver.find_element(By.ID, "apply-filters").click()
        self.wait(lambda d: "user=demo-user-1" in d.current_url)
        self.find("#records-body tr")
        users = {row.find_elements(By.TAG_NAME, "td")[3].text for row in self.driver.find_elements(By.CSS_SELECTOR, "#records-body tr")}
        self.assertEqual(users, {"demo-user-1"})
        # Older pages follow the cursor without repeating a row
        first_page = [row.get_attribute("data-key") for row in self.driver.find_elements(By.CSS_SELECTOR, "#records-body tr")]
        self.driver.find_element(By.ID, "next-page").click()
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#records-body tr")) > len(first_page))
        keys = [row.get_attribute("data-key") for row in self.driver.find_elements(By.CSS_SELECTOR, "#records-body tr")]
        self.assertEqual(len(keys), len(set(keys)))
        # A meta value: the card channel of payments
        self.open("records?namespace=JZ&meta=channel%3Dwechat")
        self.find("#records-body tr")
        types = {row.find_elements(By.TAG_NAME, "td")[2].text for row in self.driver.find_elements(By.CSS_SELECTOR, "#records-body tr")}
        self.assertEqual(types, {"JZ-pay"})

    def test_04_markup_in_a_record_is_inert_text(self):
        self.open("records?namespace=KX&type=KX-search&meta=" + urllib.parse.quote("query=" + MARKUP, safe=""))
        self.find("#records-body tr").click()
        meta = self.find("#record-meta")
        self.assertIn("<script>window.hermesInjected = 1</script>", meta.text)
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, "#main script, #main img"), [])
        self.assertIsNone(self.driver.execute_script("return window.hermesInjected === undefined ? null : window.hermesInjected"))
        self.shot("record")

    def test_05_live_tail_shows_new_records(self):
        self.open("records?namespace=JZ")
        self.find("#records-body tr")
        self.driver.find_element(By.ID, "live-tail").click()
        time.sleep(0.5)
        before = len(self.driver.find_elements(By.CSS_SELECTOR, "#records-body tr.fresh"))
        summary = DEMO.send_more()
        self.assertGreater(summary["namespaces"]["JZ"]["accepted"], 0)
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#records-body tr.fresh")) > before, timeout=20)
        self.driver.find_element(By.ID, "live-tail").click()

    def test_06_crash_group_shows_the_crashing_function(self):
        self.open("crashes")
        rows = self.find("#crash-groups tbody tr")
        self.shot("crashes")
        titles = [row.text for row in self.driver.find_elements(By.CSS_SELECTOR, "#crash-groups tbody tr")]
        probe = [index for index, title in enumerate(titles) if "crashProbe" in title]
        self.assertTrue(probe, titles)
        self.driver.find_elements(By.CSS_SELECTOR, "#crash-groups tbody tr")[probe[0]].click()
        stack = self.find("#crash-stack")
        self.assertIn("crashProbeIndexesPastTheEnd", stack.text)
        self.find("#crash-chart svg")
        self.shot("crash-group")

    def test_07_performance(self):
        self.open("performance")
        self.find("#launch table")
        self.find("#network table tbody tr")
        self.shot("performance")

    def test_08_sample_rate_edit_reaches_a_running_client(self):
        self.open("namespace/JZ")
        self.find("#editor")
        rows = self.driver.find_elements(By.CSS_SELECTOR, "#monitor-items tr")
        view = [row for row in rows if row.find_element(By.CSS_SELECTOR, ".item-type").get_attribute("value") == "view"][0]
        rate = view.find_element(By.CSS_SELECTOR, ".item-sampleRate")
        rate.clear()
        rate.send_keys("0")
        self.driver.find_element(By.ID, "preview").click()
        self.find("#editor-result pre")
        self.shot("namespace")
        self.driver.find_element(By.ID, "save").click()
        self.find("#saved")
        summary = DEMO.send_more()
        jz = summary["namespaces"]["JZ"]
        # The app sends 300 pay and 500 view events; with view sampled out only pay is kept
        self.assertEqual(jz["sent"], 800)
        self.assertEqual(jz["accepted"], 300)
        self.open("namespace/JZ")
        self.find("#history table tbody tr")
        self.assertIn(DEMO.user, self.driver.find_element(By.CSS_SELECTOR, "#history table tbody tr").text)

    def test_09_an_edit_race_is_lost_and_shown(self):
        self.open("namespace/KX")
        self.find("#editor")
        # Someone else saves KX meanwhile
        other = sign_in_api(DEMO.user, DEMO.password)
        _, namespaces, _ = api("/namespaces", session=other)
        kx = [ns for ns in namespaces["namespaces"] if ns["name"] == "KX"][0]
        configuration = dict(kx["configuration"], flushCount=42)
        status, _, _ = api("/namespaces/KX", "PUT", {"configuration": configuration, "etag": kx["etag"]}, session=other)
        self.assertEqual(status, 200)
        # This editor's save, on the version it opened, is refused with the difference shown
        box = self.driver.find_element(By.ID, "field-maxItem")
        box.clear()
        box.send_keys("7")
        self.driver.find_element(By.ID, "save").click()
        conflict = self.visible("#conflict")
        self.assertIn("flushCount", conflict.text)
        self.shot("conflict")

    def test_10_an_alert_rule_fires_into_a_webhook(self):
        receiver = Receiver()
        self.open("alerts")
        self.find("#alert-form")
        self.driver.find_element(By.ID, "alert-name").send_keys("crashes happen")
        self.driver.find_element(By.CSS_SELECTOR, "#alert-kind option[value='crashRate']").click()
        self.driver.find_element(By.ID, "alert-minutes").clear()
        self.driver.find_element(By.ID, "alert-minutes").send_keys("1440")
        self.driver.find_element(By.ID, "alert-threshold").clear()
        self.driver.find_element(By.ID, "alert-threshold").send_keys("0")
        self.driver.find_element(By.ID, "alert-webhook").send_keys(receiver.url)
        self.driver.find_element(By.ID, "alert-save").click()
        row = self.find("#alert-rules tbody tr")
        secret = row.find_element(By.CSS_SELECTOR, ".secret").get_attribute("data-secret")
        row.find_element(By.CSS_SELECTOR, "button.send-test").click()
        self.wait(lambda d: any(json.loads(body).get("state") == "test" for _, body in receiver.received), timeout=20)
        self.wait(lambda d: any(json.loads(body).get("state") == "firing" for _, body in receiver.received), timeout=40)
        for headers, body in receiver.received:
            expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
            self.assertEqual(headers.get("X-Hermes-Signature"), expected)
        self.open("alerts")
        self.find("#alert-history tbody tr")
        self.shot("alerts")
        receiver.server.shutdown()

    def test_11_a_viewer_cannot_edit(self):
        self.open("users")
        self.find("#add-user")
        self.driver.find_element(By.ID, "user-name").send_keys("vera")
        self.driver.find_element(By.CSS_SELECTOR, "#user-role option[value='viewer']").click()
        self.driver.find_element(By.ID, "user-password").send_keys("viewer password 1")
        self.driver.find_element(By.ID, "add-user").click()
        self.wait(lambda d: "vera" in d.find_element(By.ID, "main").text)
        self.shot("users")
        self.driver.find_element(By.ID, "sign-out").click()
        self.find("#sign-in")
        self.sign_in("vera", "viewer password 1")
        self.open("namespace/hermes")
        self.find("#editor")
        self.assertEqual(self.driver.find_elements(By.ID, "save"), [])
        self.assertFalse(self.driver.find_element(By.ID, "field-maxItem").is_enabled())
        status, text = self.fetch("/namespaces/hermes", "PUT", {"configuration": {"maxItem": 3}, "etag": "absent"})
        self.assertEqual(status, 403, text)
        self.assertEqual(self.fetch("/users")[0], 403)

    def test_12_sign_out(self):
        self.driver.find_element(By.ID, "sign-out").click()
        self.find("#sign-in")
        self.assertEqual(self.fetch("/session", csrf=False)[0], 401)


def main():
    global ARGS, DEMO
    parser = argparse.ArgumentParser()
    parser.add_argument("--hermes", required=True)
    parser.add_argument("--artifacts", required=True)
    parser.add_argument("--screenshots")
    parser.add_argument("--only", action="append", help="run only the tests whose names hold this (repeatable)")
    ARGS, rest = parser.parse_known_args()
    os.makedirs(ARGS.artifacts, exist_ok=True)
    if ARGS.screenshots:
        os.makedirs(ARGS.screenshots, exist_ok=True)
    DEMO = Demo(ARGS.hermes)
    try:
        loader = unittest.TestLoader()
        if ARGS.only:
            loader.testNamePatterns = ["*%s*" % pattern for pattern in ARGS.only]
        suite = loader.loadTestsFromTestCase(ConsoleTest)
        result = unittest.TextTestRunner(verbosity=2, failfast=False).run(suite)
    finally:
        DEMO.stop()
        with open(os.path.join(ARGS.artifacts, "demo.log"), "w") as log:
            log.write("".join(DEMO.output))
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
