#!/usr/bin/env python3
"""`kibitz serve` in a real browser: headless Chromium (Debian's chromium and chromium-driver,
driven by python3-selenium) plays a short game on each board page by clicking, and checks what
the page draws. Screenshots of each page go to --screenshots (docs/serve.md shows them).

  tests/browser/serve_pages.py build/release/kibitz [--screenshots DIR]

Exits 77 (skipped, with the reason) without Chromium, ChromeDriver or Selenium.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

SKIP = 77


def skip(why):
    print(f"serve_pages: skipped: {why}")
    sys.exit(SKIP)


def find(*names):
    for n in names:
        path = shutil.which(n) or (n if os.path.exists(n) else None)
        if path:
            return path
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kibitz")
    ap.add_argument("--screenshots", default="serve-screenshots")
    args = ap.parse_args()
    chromium = find("chromium", "/usr/bin/chromium", "chromium-browser")
    driver = find("chromedriver", "/usr/bin/chromedriver")
    if not chromium or not driver:
        skip("needs Debian's chromium and chromium-driver (scripts/install-deps installs them)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select, WebDriverWait
    except ImportError:
        skip("needs python3-selenium (scripts/install-deps installs it)")

    server = subprocess.Popen([args.kibitz, "serve", "--port", "0", "--max-thinking", "2"],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        if "http://" not in line:
            print(f"serve_pages: the server did not start: {line!r}")
            return 1
        url = line.split()[2].rstrip("/")
        opts = webdriver.ChromeOptions()
        opts.binary_location = chromium
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                  "--disable-dev-shm-usage"):
            opts.add_argument(a)
        browser = webdriver.Chrome(service=Service(driver), options=opts)
        try:
            os.makedirs(args.screenshots, exist_ok=True)
            failures = run_pages(browser, url, args.screenshots, By, Select, WebDriverWait)
        finally:
            browser.quit()
    finally:
        server.terminate()
        server.wait(timeout=10)
    if failures:
        for f in failures:
            print(f"serve_pages: FAILED: {f}")
        return 1
    print("serve_pages: every page played")
    return 0


def run_pages(browser, url, shots, By, Select, WebDriverWait):
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)
        return cond

    def wait_for(pred, what, timeout=30):
        try:
            WebDriverWait(browser, timeout, poll_frequency=0.1).until(lambda d: pred())
            return True
        except Exception:
            failures.append(f"timed out waiting for {what}")
            return False

    def body(attr):
        return browser.find_element(By.TAG_NAME, "body").get_attribute("data-" + attr)

    def settled(moves):
        return body("moves") == str(moves) and body("thinking") == "no"

    def click(move):
        browser.find_element(By.CSS_SELECTOR, f'#board [data-move="{move}"]').click()

    def open_page(game, **choices):
        browser.get(f"{url}/play/{game}")
        wait_for(lambda: body("moves") == "0", f"{game}: the page's first game")
        for name, value in choices.items():
            Select(browser.find_element(By.ID, name)).select_by_value(value)
        browser.find_element(By.ID, "new").click()
        time.sleep(0.3)
        wait_for(lambda: body("moves") == "0" and body("thinking") == "no", f"{game}: a new game")

    # The index lists every game and links the board pages.
    browser.get(url + "/")
    wait_for(lambda: browser.find_elements(By.ID, "play-gomoku"), "the index's links")
    for g in ("chess", "gomoku", "go"):
        check(browser.find_elements(By.ID, "play-" + g), f"index: no link to {g}")
    browser.save_screenshot(os.path.join(shots, "serve-index.png"))

    # Gomoku: black against the engine, three moves each.
    open_page("gomoku", movetime="200")
    for i, move in enumerate(["h8", "h9", "g9"]):
        if browser.find_elements(By.CSS_SELECTOR, f'#board circle.stone[data-move="{move}"]'):
            move = ["j10", "k11", "e5"][i]
        click(move)
        if not wait_for(lambda: settled(2 * i + 2) or body("terminal") == "yes",
                        f"gomoku: the engine's reply to {move}"):
            break
    stones = browser.find_elements(By.CSS_SELECTOR, "#board circle.stone")
    check(len(stones) == 6, f"gomoku: {len(stones)} stones drawn, not 6")
    check(len(browser.find_elements(By.CSS_SELECTOR, "#board circle.stone.white")) == 3,
          "gomoku: not three white stones")
    check(browser.find_elements(By.CSS_SELECTOR, "#board .lastmark"), "gomoku: no last-move mark")
    check(len(browser.find_elements(By.CSS_SELECTOR, "#moves li")) == 6, "gomoku: move list")
    check("score" in browser.find_element(By.ID, "engine").text, "gomoku: no engine report")
    browser.save_screenshot(os.path.join(shots, "serve-gomoku.png"))

    # Renju: black's forbidden points are drawn (a double three at j8), in analysis mode.
    open_page("gomoku", you="both")
    Select(browser.find_element(By.ID, "param-rule")).select_by_value("renju")
    browser.find_element(By.ID, "new").click()
    time.sleep(0.3)
    for n, move in enumerate(["h8", "a1", "i8", "a3", "j9", "a5", "j10", "a7"]):
        click(move)
        wait_for(lambda: settled(n + 1), f"renju: move {move}")
    check(browser.find_elements(By.CSS_SELECTOR, '#board [data-forbidden="j8"]'),
          "renju: j8 not drawn forbidden")
    browser.save_screenshot(os.path.join(shots, "serve-renju.png"))

    # Chess: white against the engine on a one-minute clock: e2-e4 by two clicks; the legal
    # targets are marked; both clocks run down.
    open_page("chess", movetime="200", clock="60000+0")
    click("e2")
    check(len(browser.find_elements(By.CSS_SELECTOR, "#board circle.target")) == 2,
          "chess: e2's two targets not marked")
    click("e4")
    if wait_for(lambda: settled(2), "chess: the engine's reply"):
        check(browser.find_elements(By.CSS_SELECTOR, '#board [data-move="e4"] [data-piece="P"]'),
              "chess: no white pawn drawn on e4")
        check(not browser.find_elements(By.CSS_SELECTOR, '#board [data-move="e2"] [data-piece]'),
              "chess: e2 not empty")
        black = browser.find_elements(By.CSS_SELECTOR, "#board text.piece.black")
        check(len(black) == 16, f"chess: {len(black)} black pieces")
        clocks = [int(browser.find_element(By.ID, f"clock-{i}").get_attribute("data-ms") or -1)
                  for i in (0, 1)]
        check(browser.find_element(By.ID, "clocks").is_displayed(), "chess: the clocks not shown")
        check(30000 < clocks[0] < 60000 and 30000 < clocks[1] < 60000,
              f"chess: the clocks did not run ({clocks})")
        # Black's shown time is its own, rounded up to the second as app.js does (after a
        # reply of under a second it still reads 1:00), so the text is compared with the time.
        left = -(-clocks[1] // 1000)
        text = browser.find_element(By.ID, "clock-1").text
        check(text.endswith(f" {left // 60}:{left % 60:02d}"),
              f"chess: Black's clock ({text!r}, {clocks[1]} ms)")
    click("g1")
    click("f3")
    wait_for(lambda: settled(4), "chess: the engine's second reply")
    browser.save_screenshot(os.path.join(shots, "serve-chess.png"))
    # The game as PGN, loaded back: the same four moves.
    browser.find_element(By.ID, "record").click()
    wait_for(lambda: "1. e4" in browser.find_element(By.ID, "position").get_attribute("value"),
             "chess: the PGN record")
    browser.find_element(By.ID, "load").click()
    wait_for(lambda: body("moves") == "4" and body("thinking") == "no"
             and not browser.find_element(By.ID, "error").text, "chess: the PGN loaded back")

    # Go 9x9: black against the engine; then Analyse: the candidates for black, with their
    # win rates and visits, listed and drawn on the board.
    open_page("go", movetime="1000")
    click("E5")
    if wait_for(lambda: settled(2), "go: the engine's reply"):
        check(len(browser.find_elements(By.CSS_SELECTOR, "#board circle.stone")) == 2,
              "go: two stones not drawn")
        check(not browser.find_elements(By.CSS_SELECTOR, "#board .candidate"),
              "go: the engine's old candidates still drawn after its move")
        browser.find_element(By.ID, "analyse").click()
        time.sleep(0.3)
        wait_for(lambda: body("thinking") == "no", "go: the analysis")
        check(settled(2), "go: the analysis played a move")
        rows = browser.find_elements(By.CSS_SELECTOR, "#lines tr")
        check(len(rows) >= 2 and "%" in rows[0].text, "go: no candidates with win rates")
        check(len(browser.find_elements(By.CSS_SELECTOR, "#board .candidate")) >= 2,
              "go: the candidates not drawn")
        check("for Black" in browser.find_element(By.ID, "engine").text,
              "go: the win rate not given for black")
    browser.save_screenshot(os.path.join(shots, "serve-go.png"))
    # The area count as the board stands (each stone's own point at least has an owner).
    browser.find_element(By.ID, "area").click()
    check(len(browser.find_elements(By.CSS_SELECTOR, "#board rect.territory")) > 0,
          "go: the area count not drawn")
    check("area now" in browser.find_element(By.ID, "status").text, "go: no area count given")
    browser.find_element(By.ID, "area").click()
    # A pass: the page says whose turn and the engine answers.
    browser.find_element(By.ID, "pass").click()
    wait_for(lambda: settled(4) or body("terminal") == "yes", "go: the engine's answer to a pass")

    # Hearts: South against three engine seats. The bots pick their passes, South picks three
    # by clicks, then plays two tricks; only South's cards are drawn face up.
    open_page("hearts")
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#board .card.playable"),
             "hearts: South's turn to pick")
    faces = browser.find_elements(By.CSS_SELECTOR, "#board .card[data-move]")
    check(len(faces) == 13, f"hearts: {len(faces)} cards face up, not South's 13")
    backs = browser.find_elements(By.CSS_SELECTOR, "#board .backs rect")
    check(len(backs) == 3 * 13 - 6, f"hearts: {len(backs)} card backs (North and East picked)")
    for n in range(3):
        playable = browser.find_elements(By.CSS_SELECTOR, "#board .card.playable")
        if not check(playable, "hearts: no card to pick"):
            break
        playable[-1].click()
        wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#board .card.picked")) == n + 1
                 or "play" in browser.find_element(By.ID, "status").text,
                 f"hearts: pick {n + 1}")
    def tricks_done():
        return int(browser.find_element(By.ID, "board").get_attribute("data-tricks") or 0)

    def my_turn():
        return body("thinking") == "no" and "(you)" in browser.find_element(By.ID, "status").text

    for _ in range(60):
        if "Hand over" in browser.find_element(By.ID, "status").text:
            break
        if tricks_done() >= 1 and my_turn():
            break
        playable = browser.find_elements(By.CSS_SELECTOR, "#board .card.playable")
        if playable and body("thinking") == "no":
            playable[0].click()
        time.sleep(0.4)
    check(tricks_done() >= 1, "hearts: no trick finished")
    table = browser.find_elements(By.CSS_SELECTOR, "#board .card.table")
    check(len(table) >= 1, "hearts: no card drawn on the table")
    # Why: the engine's values of South's cards over its sampled worlds.
    if "(you)" in browser.find_element(By.ID, "status").text:
        browser.find_element(By.ID, "analyse").click()
        time.sleep(0.3)
        wait_for(lambda: body("thinking") == "no", "hearts: the analysis")
        rows = browser.find_elements(By.CSS_SELECTOR, "#lines tr")
        check(rows and "pts" in rows[0].text, "hearts: no card values shown")
    else:
        check(False, "hearts: not South's turn after a trick")
    browser.save_screenshot(os.path.join(shots, "serve-hearts.png"))

    # A match between two bots, watched live: the page starts it and draws each game as it
    # ends, with the tally and Elo (server-sent events).
    browser.get(url + "/match")
    wait_for(lambda: browser.find_element(By.ID, "m-p1").get_attribute("value"), "match: the form")
    Select(browser.find_element(By.ID, "m-game")).select_by_value("gomoku")
    for field, value in (("m-games", "6"), ("m-movetime", "20")):
        box = browser.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    browser.find_element(By.ID, "m-start").click()
    if wait_for(lambda: body("done") == "yes", "match: its end", timeout=60):
        rows = browser.find_elements(By.CSS_SELECTOR, "#finished tbody tr")
        check(len(rows) == 6, f"match: {len(rows)} finished games drawn, not 6")
        check("of 6/6" in browser.find_element(By.ID, "tally").text, "match: no final tally")
        check("Match over" in browser.find_element(By.ID, "sprt").text, "match: no end line")
    browser.save_screenshot(os.path.join(shots, "serve-match.png"))

    # Diplomacy: France against six heuristic bots. Orders by clicking the map (a unit, then
    # where it goes; in support mode the unit, the unit it supports, then where that goes),
    # then the bots order and the page draws what happened.
    play_diplomacy(browser, url, shots, By, Select, wait_for, check)

    # A bad position text is refused with its one line, and the page goes on.
    open_page("chess", you="both")
    area = browser.find_element(By.ID, "position")
    area.clear()
    area.send_keys("not a fen")
    browser.find_element(By.ID, "load").click()
    wait_for(lambda: browser.find_element(By.ID, "error").text, "chess: the load error")
    check(body("moves") == "0", "chess: the page lost its game after a bad load")
    return failures


def play_diplomacy(browser, url, shots, By, Select, wait_for, check):
    from selenium.webdriver.common.action_chains import ActionChains

    def svg_attr(name):
        return browser.find_element(By.ID, "map").get_attribute(name)

    def click_province(abbr):
        # A real click at the province's unit point, wherever the map is on the screen.
        x, y = browser.execute_script(
            "const svg = document.getElementById('map');"
            "const [ux, uy] = DIPLOMACY_MAP.provinces[arguments[0]].unit;"
            "const p = new DOMPoint(ux, uy).matrixTransform(svg.getScreenCTM());"
            "return [p.x, p.y];", abbr)
        actions = ActionChains(browser)
        actions.w3c_actions.pointer_action.move_to_location(int(x), int(y)).click()
        actions.perform()

    def mode(value):
        browser.find_element(By.CSS_SELECTOR, f'input[name=mode][value="{value}"]').click()

    def row(prov):
        return Select(browser.find_element(By.CSS_SELECTOR, f'#orders select[data-province="{prov}"]'))

    browser.get(url + "/play/diplomacy")
    wait_for(lambda: svg_attr("data-phase") == "S1901M", "diplomacy: the page's first game")
    Select(browser.find_element(By.ID, "power")).select_by_visible_text("France")
    Select(browser.find_element(By.ID, "bots")).select_by_value("heuristic")
    browser.find_element(By.ID, "new").click()
    wait_for(lambda: "France" in browser.find_element(By.ID, "status").text
             and len(browser.find_elements(By.CSS_SELECTOR, "#orders select")) == 3,
             "diplomacy: France's three units to order")
    check(len(browser.find_elements(By.CSS_SELECTOR, "#map .unit")) == 22,
          "diplomacy: not 22 units drawn")
    check(len(browser.find_elements(By.CSS_SELECTOR, "#map circle.centre")) == 34,
          "diplomacy: not 34 supply centres drawn")
    click_province("par")
    click_province("bur")
    mode("support")
    click_province("mar")
    click_province("par")
    click_province("bur")
    mode("move")
    click_province("bre")
    click_province("mao")
    check(row("par").first_selected_option.text == "A PAR - BUR", "diplomacy: Paris's click order")
    check(row("mar").first_selected_option.text == "A MAR S A PAR - BUR",
          "diplomacy: Marseilles's support order")
    check(row("bre").first_selected_option.text == "F BRE - MAO", "diplomacy: Brest's order")
    check(len(browser.find_elements(By.CSS_SELECTOR, "#map .mine line")) == 3,
          "diplomacy: the three orders are not drawn")
    browser.find_element(By.ID, "submit").click()
    if wait_for(lambda: svg_attr("data-phase") == "F1901M", "diplomacy: the fall of 1901"):
        # By the rules both moves succeed whatever the bots order (docs/serve.md).
        check(browser.find_elements(By.CSS_SELECTOR, '#map .unit[data-loc="bur"][data-power="France"]'),
              "diplomacy: no French army drawn in Burgundy")
        check(browser.find_elements(By.CSS_SELECTOR, '#map .unit[data-loc="mao"][data-power="France"]'),
              "diplomacy: no French fleet drawn in the Mid-Atlantic")
        check(len(browser.find_elements(By.CSS_SELECTOR, "#map .results line.order")) >= 8,
              "diplomacy: the spring's moves are not drawn")
        text = browser.find_element(By.ID, "results").text
        check("Spring 1901" in text and "A PAR - BUR" in text, "diplomacy: the spring's orders not listed")
    browser.save_screenshot(os.path.join(shots, "serve-diplomacy.png"))
    # The suggestion, used as the fall's orders.
    browser.find_element(By.ID, "suggest").click()
    if wait_for(lambda: browser.find_elements(By.ID, "use-suggestion"), "diplomacy: the suggestion"):
        check("RM+ iterations" in browser.find_element(By.ID, "suggestion").text,
              "diplomacy: the suggestion does not say how it was found")
        browser.find_element(By.ID, "use-suggestion").click()
        browser.find_element(By.ID, "submit").click()
        wait_for(lambda: svg_attr("data-phase") in ("F1901R", "W1901A", "S1902M"),
                 "diplomacy: the end of 1901")


if __name__ == "__main__":
    sys.exit(main())
