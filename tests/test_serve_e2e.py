"""The phone page of `yardzee serve` in headless Chromium, end to end.

usage: /usr/bin/python3 test_serve_e2e.py YARDZEE_BINARY SAMPLES_DIR

Chromium is driven through chromedriver (Debian's chromium-driver) over the W3C WebDriver HTTP
protocol, spoken here with the standard library only: no npm, no network. The test starts
`yardzee serve --game` on loopback with a game of Ann and Bob, opens the page at a phone's size
(412x915) and, as a player would:
  - types a wrong join code, takes lawn_004.jpg through the page's photo input, and sees the
    roll 3 2 2 4 6 drawn as five dice and the advice "Keep 2 2 and throw 3 dice again.";
  - taps Record this throw: the page shows the refusal and the game file is byte for byte as
    it was;
  - types the right code, records the throw, picks Chance, taps Score: the scoreboard shows
    17 in Ann's Chance and total, and Bob's turn.
After the read it saves a screenshot (WebDriver, PNG) as serve-page.png beside the binary. With
YARDZEE_SCREENSHOT_OUT=samples/readme/serve-page.png it writes it there too: that is how the
README's picture is made.

Each failed check prints a FAIL line; the last line is "N passed, N failed". Exit 0 when all
pass, 1 when one fails, 77 (ctest's SKIP_RETURN_CODE) when chromium or chromedriver is not
installed. Every wait has a time limit, and the test gives up after 40 s: it ends within 60 s.
"""
import base64
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

WHOLE_TEST_SECONDS = 40  # then up to 15 s to stop the browser and the server
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C key of an element reference

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + name + (" (%s)" % detail if detail else ""), flush=True)
    return ok


def wait_for(what, timeout):
    """Polls what() until it returns something true; None after timeout seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = what()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.1)


class WebDriver:
    """The few W3C WebDriver commands the test needs, over urllib."""

    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port
        self.session = None

    def call(self, method, path, body=None, timeout=30):
        if self.session:
            path = "/session/%s%s" % (self.session, path)
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as error:
            value = json.load(error)["value"]
            raise RuntimeError("%s %s: %s: %s" % (method, path, value.get("error"),
                                                  value.get("message", "")[:300])) from None

    def start(self, chromium, profile_dir):
        # A desktop window is at least 500 px wide: the phone's viewport is emulated.
        phone = {"width": 412, "height": 915, "pixelRatio": 1.0}
        options = {"binary": chromium, "mobileEmulation": {"deviceMetrics": phone}, "args": [
            "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
            "--window-size=412,915", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=" + profile_dir]}
        capabilities = {"browserName": "chrome", "goog:chromeOptions": options,
                        "timeouts": {"implicit": 0, "pageLoad": 20000, "script": 10000}}
        answer = self.call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = answer["sessionId"]

    def ready(self):
        try:
            return self.call("GET", "/status", timeout=2).get("ready")
        except (OSError, RuntimeError, ValueError):
            return False

    def quit(self):
        if self.session:
            self.call("DELETE", "", timeout=5)
            self.session = None

    def open(self, url):
        self.call("POST", "/url", {"url": url})

    def find(self, css):
        found = self.call("POST", "/elements", {"using": "css selector", "value": css})
        if not found:
            raise RuntimeError("the page has no " + css)
        return found[0][ELEMENT]

    def click(self, css):
        self.call("POST", "/element/%s/click" % self.find(css), {})

    def type(self, css, text, clear=False):
        element = self.find(css)
        if clear:
            self.call("POST", "/element/%s/clear" % element, {})
        self.call("POST", "/element/%s/value" % element, {"text": text})

    def script(self, body, *args):
        return self.call("POST", "/execute/sync", {"script": body, "args": list(args)})

    def screenshot(self):
        return base64.b64decode(self.call("GET", "/screenshot"))


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def text_of(driver, css):
    return driver.script("const e = document.querySelector(arguments[0]);"
                         "return e ? e.textContent : null;", css)


def dice_of(driver, css):
    """The dice drawn in a .dice box: the value each says (aria-label) and its pips drawn."""
    return driver.script(
        "return [...document.querySelectorAll(arguments[0] + ' button.die')].map(d =>"
        " [Number((d.getAttribute('aria-label').match(/showing (\\d)/) || [0, 0])[1]),"
        "  d.querySelectorAll('i.p').length]);", css)


def board_of(driver):
    """The scoreboard as {row label: [cell per player]}."""
    rows = driver.script("return [...document.querySelectorAll('#board tr')]"
                         ".map(r => [...r.cells].map(c => c.textContent));")
    return {row[0]: row[1:] for row in rows}


def start_server(yardzee, game, tmp, env):
    out = open(os.path.join(tmp, "serve.out"), "w+")
    err = open(os.path.join(tmp, "serve.err"), "w+")
    server = subprocess.Popen([yardzee, "serve", "--bind", "127.0.0.1", "--port", "0",
                               "--game", game], stdout=out, stderr=err, env=env)

    def started():
        out.seek(0)
        text = out.read()
        url = re.search(r"http://127\.0\.0\.1:\d+/", text)
        code = re.search(r"^Join code: ([A-Z0-9]{6}) ", text, re.M)
        return url and code and (url.group(0), code.group(1))

    wait_for(lambda: started() or server.poll() is not None, 30)
    return server, err, started()


def run(driver, url, code, game_path, photo, shots):
    driver.open(url)
    check("the page shows whose turn it is",
          wait_for(lambda: text_of(driver, "#turn") == "Round 1: Ann to throw", 10),
          text_of(driver, "#turn"))

    # A wrong code first, typed into the page's Join code field as a player would.
    driver.type("#code", "WRONG2")
    driver.type("#photo", photo)  # the file input behind "Take photo"
    dice = wait_for(lambda: (text_of(driver, "#status") or "").startswith("Ann threw") and
                    dice_of(driver, "#roll"), 30)
    check("the page shows the read", dice, text_of(driver, "#status"))
    check("the roll is 3 2 2 4 6, each die drawn with as many pips",
          dice == [[value, value] for value in (3, 2, 2, 4, 6)], dice)
    check("the page says how sure the reader is",
          re.search(r"sure: \d+%", text_of(driver, "#status") or ""), text_of(driver, "#status"))
    advice = text_of(driver, "#advice")
    check("the advice is to keep 2 2", advice == "Keep 2 2 and throw 3 dice again.", advice)
    check("the annotated photo is shown", wait_for(lambda: driver.script(
        "const i = document.getElementById('shot'); return i.complete && i.naturalWidth > 0;"), 10))

    driver.script("window.scrollTo(0, 0);")  # typing the code scrolled down to its field
    png = driver.screenshot()
    check("the screenshot is a PNG", png.startswith(b"\x89PNG\r\n\x1a\n"))
    for path in shots:
        with open(path, "wb") as out:
            out.write(png)
        print("screenshot: %s (%d KB)" % (path, len(png) // 1024))

    before = open(game_path, "rb").read()
    driver.click("#record")
    refusal = wait_for(lambda: text_of(driver, "#gamemsg"), 10)
    check("a wrong join code: the page says the game was not changed",
          refusal and "join code is missing or wrong" in refusal, refusal)
    check("a wrong join code: the game file is byte for byte as it was",
          open(game_path, "rb").read() == before)
    check("a wrong join code: still Ann to throw",
          text_of(driver, "#turn") == "Round 1: Ann to throw", text_of(driver, "#turn"))

    driver.type("#code", code.lower(), clear=True)  # typed in any case
    driver.click("#record")
    turn = wait_for(lambda: text_of(driver, "#turn") == "Round 1: Ann, 1 of 3 throws made", 10)
    check("the right code records the throw", turn, text_of(driver, "#turn"))
    check("the dice on the lawn are the roll read",
          [v for v, _ in dice_of(driver, "#lawn")] == [3, 2, 2, 4, 6], dice_of(driver, "#lawn"))
    check("the refusal is gone", text_of(driver, "#gamemsg") == "", text_of(driver, "#gamemsg"))

    driver.click("#box option[value='chance']")
    driver.click("#score")
    turn = wait_for(lambda: text_of(driver, "#turn") == "Round 1: Bob to throw", 10)
    check("scoring passes the turn to Bob", turn, text_of(driver, "#turn"))
    board = board_of(driver)
    check("the scoreboard shows Ann's 17 in Chance", board.get("Chance") == ["17", ""],
          board.get("Chance"))
    check("the scoreboard shows Ann's total of 17", board.get("Total") == ["17", "0"],
          board.get("Total"))
    moves = json.load(open(game_path))["moves"]
    check("the game file has the throw from the photo, not corrected, and the score",
          len(moves) == 2 and moves[0]["throw"] == [3, 2, 2, 4, 6] and
          moves[0]["photo"].startswith("upload-") and "corrected" not in moves[0] and
          moves[1] == {"player": "Ann", "score": "chance", "points": 17}, moves)


def main():
    yardzee, samples = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    chromium, chromedriver = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not chromedriver:
        print("skipped: chromium-driver not installed")
        return 77
    shots = [os.path.join(os.path.dirname(yardzee), "serve-page.png")]
    if os.environ.get("YARDZEE_SCREENSHOT_OUT"):
        shots.append(os.path.abspath(os.environ["YARDZEE_SCREENSHOT_OUT"]))

    def give_up(signum, frame):
        raise TimeoutError("the test took longer than %d s" % WHOLE_TEST_SECONDS)

    signal.signal(signal.SIGALRM, give_up)
    signal.alarm(WHOLE_TEST_SECONDS)
    started = time.monotonic()
    env = dict(os.environ)
    env.setdefault("YARDZEE_CACHE", os.path.join(os.path.dirname(yardzee), "cache"))
    # A browser that is slow to go may still write in its profile while the folder goes.
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        env["TMPDIR"] = tmp
        game = os.path.join(tmp, "g.json")
        new = subprocess.run([yardzee, "game", "new", "--players", "Ann,Bob", "--file", game],
                             stdout=subprocess.DEVNULL, env=env, timeout=30)
        check("a new game", new.returncode == 0, "exit %d" % new.returncode)
        server, server_err, address = start_server(yardzee, game, tmp, env)
        port = free_port()
        # In a process group of its own with the browser it starts, so that a test cut short
        # before the browser is told to quit takes it down too (killpg below).
        driver_process = subprocess.Popen([chromedriver, "--port=%d" % port],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                          start_new_session=True)
        driver = WebDriver(port)
        try:
            if check("the server prints its address and join code", address):
                if check("chromedriver answers", wait_for(driver.ready, 15)):
                    driver.start(chromium, os.path.join(tmp, "profile"))
                    run(driver, address[0], address[1], game,
                        os.path.join(samples, "lawn", "lawn_004.jpg"), shots)
        except (RuntimeError, OSError, TimeoutError) as error:
            check("no error from the browser or the server", False, error)
        finally:
            signal.alarm(0)
            for stop in (driver.quit, driver_process.terminate, server.terminate):
                try:
                    stop()
                except (RuntimeError, OSError):
                    pass
            for process in (driver_process, server):
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            try:
                os.killpg(driver_process.pid, signal.SIGKILL)
            except ProcessLookupError:  # the browser has quit
                pass
        check("the server stops cleanly (under ASan: nothing leaked)", server.returncode == 0,
              "exit %s" % server.returncode)
        if failed:
            server_err.seek(0)
            for line in server_err.read().splitlines()[:20]:
                print("  server: " + line)
    print("took %.1f s" % (time.monotonic() - started))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
