"""Browser tests of what the page shows when answers and sessions do not come as expected: an
answer older than what the page shows is dropped (a reload's state arriving after the next save's
error), a template that has never compiled shows nothing of the one open before, and a restarted
studio (a new session token) is said as such (run by test_studio.py, which imports this module's
test case)."""

import os
import shutil
import socket
import tempfile
import time
import unittest

from studio_harness import Studio, launch_browser, wait_js
from playwright.sync_api import sync_playwright

GOOD = """{
  flick: 1,
  canvas: { width: 64, height: 36, fps: 10, duration: 2, background: "#0F172A" },
  layers: [{ id: "card", size: [20, 20], position: [32, 18], backgroundColor: "#F97316" }],
  timeline: [{ target: "card", property: "position", to: [44, 18], at: 0, duration: 1 }],
}
"""
BROKEN = "{ flick: 1, canvas: }}}\n"
SHOTS = os.environ.get("STUDIO_SCREENSHOTS")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StudioStateTests(unittest.TestCase):
    """A studio over a folder of its own (good.json5, broken.json5), and a page on it."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="flick-studio-state-")
        self.good = os.path.join(self.folder, "good.json5")
        with open(self.good, "w") as f:
            f.write(GOOD)
        with open(os.path.join(self.folder, "broken.json5"), "w") as f:
            f.write(BROKEN)
        self.port = free_port()
        self.studios = [Studio(self.folder, port=self.port)]
        self.playwright = sync_playwright().start()
        self.browser = launch_browser(self.playwright)
        self.context = self.browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))

    def tearDown(self):
        self.context.close()
        self.browser.close()
        self.playwright.stop()
        for studio in self.studios:
            studio.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def open(self, template="good.json5"):
        self.page.goto(f"{self.studios[0].url}#{template}")
        self.js("document.body.dataset.ready === 'true' && document.body.dataset.events === 'open'")
        self.js("document.body.dataset.shownFrame !== undefined")

    def js(self, expression, timeout=15000):
        return wait_js(self.page, expression, timeout=timeout)

    def save(self, text):
        temp = self.good + ".tmp~"
        with open(temp, "w") as f:
            f.write(text)
        os.replace(temp, self.good)

    def shot(self, name):
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            self.page.screenshot(path=os.path.join(SHOTS, name))

    def test_a_reload_state_answered_after_the_next_save_error_is_dropped(self):
        self.open()
        studio = self.studios[0]
        first = studio.get_json("/api/template", template="good.json5")["revision"]
        # The state the `reload` of the good save asks for is held (fetched from the server at
        # once, so it is that revision's) until the broken save's `error` has arrived.
        held = []

        def hold_first(route):
            if held:
                route.continue_()
                return
            held.append((route, route.fetch()))

        self.page.route("**/api/template?*", hold_first)
        self.save(GOOD.replace("#0F172A", "#1E293B"))
        deadline = time.monotonic() + 15
        while not held and time.monotonic() < deadline:
            self.page.evaluate("1")
            time.sleep(0.02)
        self.assertTrue(held, "the page did not ask for the state of the good save")
        self.save(GOOD.replace("fps: 10", "fps: 10,,"))
        self.js("document.body.dataset.error !== undefined")
        broken = studio.get_json("/api/template", template="good.json5")
        self.assertFalse(broken["ok"])
        self.assertEqual(broken["revision"], first + 2)
        route, response = held[0]
        self.assertEqual(response.json()["revision"], first + 1)
        route.fulfill(response=response)
        # Whatever the page asks from now on is answered; it ends on the broken revision.
        time.sleep(1)
        self.page.evaluate("() => window.studio.settled()")
        shown = self.page.evaluate(
            "[window.studio.state.info.revision, window.studio.state.info.ok, document.body.dataset.revision]")
        self.assertEqual(shown, [first + 2, False, str(first + 2)], "the page shows an older state than the error")
        self.assertTrue(self.page.is_visible("#error-overlay"), "the error overlay was hidden by an older state")
        self.assertEqual(self.page.text_content("#revision"), f"rev {first + 2}")
        self.assertEqual(self.page.evaluate("document.body.dataset.error"), "good.json5:3:44")
        self.assertEqual(self.errors, [], "JavaScript errors on the page")

    def test_a_template_that_never_compiled_shows_nothing_of_the_one_open_before(self):
        self.open()
        self.page.evaluate("window.studio.seekFrame(12)")
        self.js("document.body.dataset.shownFrame === '12'")
        self.js("document.querySelector('#render-ms').textContent !== ''")
        self.page.evaluate("window.studio.selectLayer('card')")
        self.js("document.body.dataset.traceProperty === 'card.position'")
        self.page.click("#templates .template-item[data-name='broken.json5']")
        self.js("document.body.dataset.error !== undefined")
        self.page.evaluate("() => window.studio.settled()")
        self.assertEqual(self.page.text_content("#template-name"), "broken.json5")
        self.assertEqual(self.page.evaluate("document.body.dataset.error"), "broken.json5:1:21")
        # No frame of good.json5: none shown, the canvas gives way to a placeholder.
        self.assertIsNone(self.page.evaluate("document.body.dataset.shownFrame ?? null"))
        self.assertIsNone(self.page.evaluate("window.studio.viewer.bitmap"))
        self.assertFalse(self.page.is_visible("#viewer"), "the canvas of the previous template is shown")
        self.assertTrue(self.page.is_visible("#stage .no-frame"))
        note = self.page.text_content("#error-overlay .err-note")
        self.assertNotIn("last good frame", note)
        self.assertIn("has not compiled yet", note)
        # Nor its readouts, timeline, layers, inspector, plot or parameters.
        self.assertEqual(self.page.text_content("#render-ms"), "")
        self.assertEqual(self.page.text_content("#frame"), "0 / 0")
        self.assertEqual(self.page.eval_on_selector_all(".tl-row", "els => els.length"), 0)
        self.assertEqual(self.page.eval_on_selector_all("#layers .layer-item", "els => els.length"), 0)
        self.assertEqual(self.page.text_content(".insp-layer"), "No layer selected")
        self.assertIsNone(self.page.evaluate("window.studio.state.trace"))
        self.assertIn("has not compiled", self.page.text_content("#panel-params .param-list"))
        self.shot("never-compiled.png")
        # Back to the good one: its frame again.
        self.page.click("#templates .template-item[data-name='good.json5']")
        self.js("document.body.dataset.shownFrame === '0' && document.body.dataset.error === undefined")
        self.assertTrue(self.page.is_visible("#viewer"))
        self.assertEqual(self.errors, [], "JavaScript errors on the page")

    def test_a_restarted_studio_is_said_as_such(self):
        self.open()
        self.assertEqual(self.studios[0].stop(), 130)
        self.js("document.body.dataset.events === 'closed'")
        self.assertEqual(self.page.text_content("#connection .label"), "Offline")
        # Another start on the same address: a new session token, which the page cannot know.
        self.studios.append(Studio(self.folder, port=self.port))
        self.js("document.body.dataset.session === 'lost'", timeout=20000)
        self.assertTrue(self.page.is_visible("#session-lost"))
        self.assertEqual(self.page.text_content("#connection .label"), "Restarted")
        self.assertIn("restarted", self.page.text_content("#session-lost-title"))
        self.assertEqual(self.page.text_content("#session-lost-url"), f"http://127.0.0.1:{self.port}/?token=…")
        self.shot("restarted.png")
        self.assertEqual(self.errors, [], "JavaScript errors on the page")

    def test_a_refused_request_says_the_studio_was_restarted(self):
        self.open()
        self.page.evaluate("window.studio.seekFrame(3)")
        self.js("document.body.dataset.shownFrame === '3'")
        # A 403 for a path out of the folder is no restart: the studio still takes the token.
        self.page.evaluate("window.studio.loader.load({ template: '../x.json5', frame: 0, opened: -1 })")
        self.page.evaluate("() => window.studio.settled()")
        time.sleep(0.5)
        self.assertIsNone(self.page.evaluate("document.body.dataset.session ?? null"))
        self.assertFalse(self.page.is_visible("#session-lost"))
        # The frames are refused as a restarted studio refuses them, the event stream stays up.
        self.page.route("**/api/frame.png?*", lambda route: route.fulfill(
            status=403, content_type="application/json",
            body='{"error": {"status": 403, "message": "the session token is wrong"}}'))
        self.page.route("**/api/templates?*", lambda route: route.fulfill(
            status=403, content_type="application/json",
            body='{"error": {"status": 403, "message": "the session token is wrong"}}'))
        self.page.evaluate("window.studio.seekFrame(5)")
        self.js("document.body.dataset.session === 'lost'")
        self.assertTrue(self.page.is_visible("#session-lost"))
        self.assertEqual(self.errors, [], "JavaScript errors on the page")


if __name__ == "__main__":
    unittest.main()
