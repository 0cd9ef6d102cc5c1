"""The phone page of `yardzee serve` in headless Chromium, end to end.

usage: /usr/bin/python3 test_serve_e2e.py YARDZEE_BINARY SAMPLES_DIR

Chromium is driven through chromedriver (Debian's chromium-driver) over the W3C WebDriver HTTP
protocol, spoken here with the standard library only: no npm, no network. The test starts
`yardzee serve --game` on loopback with a game of Ann and Bob, opens the page at a phone's size
(390x844) and, as players would:
  - takes lawn_004.jpg through the page's photo input: the first screen shows the roll 3 2 2 4 6
    as five dice, how sure, the advice and Record, the photo small below them;
  - taps Record without the join code: the code field appears right under the refusal and the
    game file is byte for byte as it was; the code typed, the throw is recorded;
  - double taps Keep, then Record (a refused photo, lawn_010.jpg, corrected in 3 taps: the '?'
    die, its value, Record), then Score, then Undo's "Yes": each records exactly one move;
  - opens a second browser from the QR link (?code=): both score the same throw at once, one is
    recorded and the other says "Already recorded" and shows the game as it is;
  - plays the last box of a game: the winner, the standings, each player's points given up and
    worst decision (GET /api/review), the full review a tap away, New game;
  - stops the server: the page says it is offline.
Screenshots (PNG, 390x844) of the read, the score step and game over go beside the binary as
serve-read.png, serve-score.png and serve-over.png; with YARDZEE_SCREENSHOT_DIR=samples/readme
they are written there too: that is how the README's pictures are made.

Each failed check prints a FAIL line; the last line is "N passed, N failed". Exit 0 when all
pass, 1 when one fails, 77 (ctest's SKIP_RETURN_CODE) when chromium or chromedriver is not
installed. Every wait has a time limit, and the test gives up after 100 s: it ends within 120 s.
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

WHOLE_TEST_SECONDS = 100  # then up to 15 s to stop the browser and the server
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
        phone = {"width": 390, "height": 844, "pixelRatio": 1.0}
        options = {"binary": chromium, "mobileEmulation": {"deviceMetrics": phone}, "args": [
            "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
            "--window-size=390,844", "--hide-scrollbars", "--no-first-run",
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
        """The phone's screen, 390x844 (a headless window is wider than the emulated phone)."""
        clip = {"x": 0, "y": 0, "width": 390, "height": 844, "scale": 1}
        answer = self.call("POST", "/goog/cdp/execute", {"cmd": "Page.captureScreenshot",
                                                         "params": {"clip": clip}})
        return base64.b64decode(answer["data"])


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


def moves_in(game_path):
    return json.load(open(game_path))["moves"]


def visible(driver, css):
    return driver.script("const e = document.querySelector(arguments[0]);"
                         "return !!e && !e.closest('[hidden]') && e.getClientRects().length > 0;",
                         css)


def rect(driver, css):
    return driver.script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                         "return [r.top, r.bottom];", css)


def double_tap(driver, css):
    """Two taps 40 ms apart, as a thumb does: the second lands while the first is on its way."""
    driver.script("const b = document.querySelector(arguments[0]);"
                  "b.click(); setTimeout(() => b.click(), 40);", css)


def save_shot(driver, shots, name):
    driver.script("window.scrollTo(0, 0);")
    width = driver.script("return [window.innerWidth, document.documentElement.scrollWidth];")
    check("nothing on the page is wider than the phone", width == [390, 390], width)
    png = driver.screenshot()
    check("the screenshot %s is a PNG" % name, png.startswith(b"\x89PNG\r\n\x1a\n"))
    for folder in shots:
        path = os.path.join(folder, name)
        with open(path, "wb") as out:
            out.write(png)
        print("screenshot: %s (%d KB)" % (path, len(png) // 1024))


def one_more_move(game_path, before, what):
    """Waits for the game file to have one move more than before, and a moment for a second."""
    wait_for(lambda: len(moves_in(game_path)) != before, 10)
    time.sleep(0.5)
    after = len(moves_in(game_path))
    check(what + ": exactly one move", after == before + 1, "%d moves, were %d" % (after, before))


def run(driver, url, code, game_path, samples, shots, second):
    photo = os.path.join(samples, "lawn", "lawn_004.jpg")
    refused_photo = os.path.join(samples, "lawn", "lawn_010.jpg")
    driver.open(url)
    check("the page shows whose turn it is",
          wait_for(lambda: text_of(driver, "#turn") == "Round 1: Ann to throw", 10),
          text_of(driver, "#turn"))
    check("the page has a web app manifest", driver.script(
        "return document.querySelector('link[rel=manifest]').href.endsWith('manifest.webmanifest');"))

    # The read: the answer first, the photo small below it.
    driver.type("#photo", photo)  # the file input behind "Take photo"
    dice = wait_for(lambda: (text_of(driver, "#status") or "").startswith("Ann threw") and
                    dice_of(driver, "#roll"), 30)
    check("the roll is 3 2 2 4 6, each die drawn with as many pips",
          dice == [[value, value] for value in (3, 2, 2, 4, 6)], dice)
    check("the page says how sure the reader is",
          re.search(r"sure: \d+%", text_of(driver, "#status") or ""), text_of(driver, "#status"))
    advice = text_of(driver, "#advice")
    check("the advice is to keep 2 2", advice == "Keep 2 2 and throw 3 dice again.", advice)
    check("the annotated photo is shown", wait_for(lambda: driver.script(
        "const i = document.getElementById('shot'); return i.complete && i.naturalWidth > 0;"), 10))
    bottom = max(rect(driver, css)[1] for css in ("#roll", "#status", "#advice", "#record"))
    check("the roll, how sure, the advice and Record are on the first screen", bottom <= 844,
          bottom)
    check("the photo comes after Record", rect(driver, "#shot")[0] >= rect(driver, "#record")[1])
    save_shot(driver, shots, "serve-read.png")

    # No join code yet: the refusal, and the code field right under it.
    before = open(game_path, "rb").read()
    driver.click("#record")
    refusal = wait_for(lambda: text_of(driver, "#recordmsg"), 10)
    check("without the join code the page says the game was not changed",
          refusal and "join code is missing or wrong" in refusal, refusal)
    check("the code field appears right under the refusal", visible(driver, "#codeask") and
          driver.script("return document.getElementById('recordmsg').nextElementSibling.id;") ==
          "codeask")
    check("without the code the game file is byte for byte as it was",
          open(game_path, "rb").read() == before)
    driver.type("#code", code.lower(), clear=True)  # typed in any case
    driver.click("#codego")
    turn = wait_for(lambda: text_of(driver, "#turn") == "Round 1: Ann, 1 of 3 throws made", 10)
    check("the code given, the throw is recorded", turn, text_of(driver, "#turn"))
    check("the dice on the lawn are the roll read",
          [v for v, _ in dice_of(driver, "#lawn")] == [3, 2, 2, 4, 6], dice_of(driver, "#lawn"))
    check("the confirmation line says what was recorded",
          text_of(driver, "#lasttext") == "Ann threw 3 2 2 4 6", text_of(driver, "#lasttext"))

    # A double tap on Keep (the advised 2 2 are preselected).
    check("Keep says what it keeps", text_of(driver, "#keep") == "Keep 2 2, throw 3",
          text_of(driver, "#keep"))
    n = len(moves_in(game_path))
    double_tap(driver, "#keep")
    one_more_move(game_path, n, "a double tap on Keep")
    check("the keep is 2 2", moves_in(game_path)[-1].get("keep") == [2, 2], moves_in(game_path)[-1])

    # A refused photo, corrected in three taps: the '?' die, its value, Record (a double tap).
    driver.type("#photo", refused_photo)
    dice = wait_for(lambda: "Could not read" in (text_of(driver, "#status") or "") and
                    dice_of(driver, "#roll"), 30)
    check("a refused photo starts from the dice read, the missing one '?'",
          [v for v, _ in dice or []] == [2, 5, 6, 4, 0], dice)
    check("the missing die is marked unsure",
          driver.script("return document.querySelectorAll('#roll .die.unsure').length;") == 1)
    check("Record waits for the missing die", driver.script(
        "return document.getElementById('record').disabled;"))
    n = len(moves_in(game_path))
    taps = 0
    driver.click("#roll button.die:nth-child(5)")
    taps += 1
    check("tapping a die opens the 1-6 picker", visible(driver, "#picker"))
    driver.click("#picker .faces button:nth-child(2)")
    taps += 1
    double_tap(driver, "#record")
    taps += 1
    one_more_move(game_path, n, "a double tap on Record")
    last = moves_in(game_path)[-1]
    check("the corrected roll is recorded in %d taps (at most 5)" % taps,
          taps <= 5 and last.get("throw") == [2, 5, 6, 4, 2] and last.get("corrected") is True,
          last)

    # The score step: every open box with its points, the best marked and chosen.
    wait_for(lambda: visible(driver, "#score"), 10)
    boxes = driver.script("return [...document.querySelectorAll('#boxes button')].map(b =>"
                          " [b.dataset.box, b.querySelector('.pts').textContent,"
                          "  b.classList.contains('best'), b.classList.contains('chosen')]);")
    check("13 open boxes with their points", len(boxes) == 13 and
          dict((b[0], b[1]) for b in boxes).get("chance") == "19", boxes)
    best = [b for b in boxes if b[2]]
    check("one box is marked best, and it is the one chosen", len(best) == 1 and best[0][3],
          best)
    save_shot(driver, shots, "serve-score.png")
    driver.click("#boxes button[data-box='chance']")
    check("the Score button says the box and its points",
          text_of(driver, "#score") == "Score Chance for 19", text_of(driver, "#score"))
    n = len(moves_in(game_path))
    double_tap(driver, "#score")
    one_more_move(game_path, n, "a double tap on Score")
    check("the confirmation line: Ann scored 19 in Chance",
          wait_for(lambda: text_of(driver, "#lasttext") == "Ann scored 19 in Chance", 5),
          text_of(driver, "#lasttext"))
    check("Undo is right there", visible(driver, "#undo"))

    # Undo asks first; a double tap on its Yes takes back one move.
    driver.click("#undo")
    check("Undo asks before taking back", visible(driver, "#undoask") and
          "Ann scored 19 in Chance" in text_of(driver, "#undoq"), text_of(driver, "#undoq"))
    check("nothing is undone by the Undo button alone", len(moves_in(game_path)) == n + 1)
    double_tap(driver, "#undoyes")
    wait_for(lambda: len(moves_in(game_path)) != n + 1, 10)
    time.sleep(0.5)
    check("a double tap on Yes, undo: exactly one move taken back",
          len(moves_in(game_path)) == n, len(moves_in(game_path)))
    wait_for(lambda: visible(driver, "#score"), 10)
    driver.click("#boxes button[data-box='chance']")
    driver.click("#score")
    check("scored again, Bob's turn",
          wait_for(lambda: text_of(driver, "#turn") == "Round 1: Bob to throw", 10),
          text_of(driver, "#turn"))

    # A second phone joins by the QR link; Bob throws; both phones score it at once.
    second.open(url + "?code=" + code)
    check("the QR link's code is taken out of the address bar", wait_for(
        lambda: second.script("return location.search;") == "", 10))
    check("the second phone keeps the code from the link",
          second.script("return localStorage.getItem('yardzee-code');") == code)
    tag = json.load(urllib.request.urlopen(url + "api/game", timeout=10))["tag"]
    request = urllib.request.Request(url + "api/game/throw", method="POST", headers={
        "X-Join-Code": code}, data=json.dumps({"tag": tag, "roll": [5, 5, 5, 2, 2]}).encode())
    urllib.request.urlopen(request, timeout=10).read()
    for phone in (driver, second):
        wait_for(lambda: visible(phone, "#score") and
                 text_of(phone, "#turn") == "Round 1: Bob, 1 of 3 throws made", 10)
    n = len(moves_in(game_path))
    for phone in (driver, second):
        phone.script("document.querySelector('#boxes button[data-box=full_house]').click();"
                     "setTimeout(() => document.getElementById('score').click(), 100);")
    wait_for(lambda: len(moves_in(game_path)) != n, 10)
    time.sleep(1)
    check("two phones scoring the same throw: exactly one move",
          len(moves_in(game_path)) == n + 1, len(moves_in(game_path)))
    said = [text_of(phone, "#gamemsg") for phone in (driver, second)]
    check("the other phone says it is already recorded",
          sorted(said) == ["", "Already recorded: this is the game as it is now."], said)
    check("both phones show the game as it is",
          all(wait_for(lambda: text_of(phone, "#turn") == "Round 2: Ann to throw", 5)
              for phone in (driver, second)), [text_of(p, "#turn") for p in (driver, second)])
    second.quit()

    # The last box of a game: the winner, the standings, New game.
    boxes = ["aces", "twos", "threes", "fours", "fives", "sixes", "three_kind", "four_kind",
             "full_house", "small_straight", "large_straight", "yahtzee", "chance"]
    moves = []
    for box in boxes:
        for player, roll in (("Ann", [6, 6, 6, 5, 5]), ("Bob", [1, 2, 3, 4, 6])):
            moves += [{"player": player, "throw": roll}, {"player": player, "score": box}]
    moves.pop()  # Bob's chance is left to score on the page
    near_end = json.load(open(game_path))
    near_end["moves"] = moves
    json.dump(near_end, open(game_path, "w"))
    check("the page follows a change made elsewhere", wait_for(
        lambda: text_of(driver, "#turn") == "Round 13: Bob, 1 of 3 throws made", 10),
        text_of(driver, "#turn"))
    driver.click("#score")
    check("the last box ends the game",
          wait_for(lambda: text_of(driver, "#turn") == "Game over", 10), text_of(driver, "#turn"))
    winner = wait_for(lambda: text_of(driver, "#winner"), 5)
    check("the winner is shown", winner and re.match(r"Ann wins with \d+!", winner), winner)
    standings = driver.script("return [...document.querySelectorAll('#standings li')]"
                              ".map(li => li.textContent);")
    check("the final standings, Ann first", len(standings) == 2 and
          standings[0].startswith("Ann: ") and standings[1].startswith("Bob: "), standings)
    check("New game is offered", visible(driver, "#newgame"))
    # The review at game over comes from GET /api/review (its numbers: test_review.sh).
    review = json.load(urllib.request.urlopen(url + "api/review"))
    worst = {p["name"]: p["worst"][0] for p in review["players"]}
    shown = wait_for(lambda: visible(driver, "#review") and text_of(driver, "#reviewplayers"), 10)
    check("at game over: each player's points given up and worst decision",
          shown and all(f"{p['name']}: {p['given_up']:.1f} points given up" in shown and
                        f"round {worst[p['name']]['round']}, throw {worst[p['name']]['throw']}"
                        in shown for p in review["players"]), shown)
    save_shot(driver, shots, "serve-over.png")
    driver.click("#reviewmore")
    check("a tap shows the full review", visible(driver, "#reviewall") and
          "given up" in (text_of(driver, "#reviewall") or ""),
          text_of(driver, "#reviewall"))
    driver.click("#newgame")
    check("New game starts the same players again", wait_for(
        lambda: text_of(driver, "#turn") == "Round 1: Ann to throw", 10), text_of(driver, "#turn"))
    kept = re.sub(r"\.json$", "-1.json", game_path)
    check("the finished game is kept beside the new one", os.path.exists(kept) and
          len(moves_in(kept)) == 52, kept)


def offline(driver, server):
    server.terminate()
    server.wait(timeout=10)
    check("a stopped server: the page says it is offline",
          wait_for(lambda: visible(driver, "#offline"), 10), text_of(driver, "#offline"))


def main():
    yardzee, samples = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    chromium, chromedriver = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not chromedriver:
        print("skipped: chromium-driver not installed")
        return 77
    shots = [os.path.dirname(yardzee)]
    if os.environ.get("YARDZEE_SCREENSHOT_DIR"):
        shots.append(os.path.abspath(os.environ["YARDZEE_SCREENSHOT_DIR"]))

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
        driver, second = WebDriver(port), WebDriver(port)
        try:
            if check("the server prints its address and join code", address):
                if check("chromedriver answers", wait_for(driver.ready, 15)):
                    driver.start(chromium, os.path.join(tmp, "profile"))
                    second.start(chromium, os.path.join(tmp, "profile2"))
                    run(driver, address[0], address[1], game, samples, shots, second)
                    offline(driver, server)
        except (RuntimeError, OSError, TimeoutError) as error:
            check("no error from the browser or the server", False, error)
        finally:
            signal.alarm(0)
            for stop in (driver.quit, second.quit, driver_process.terminate, server.terminate):
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
