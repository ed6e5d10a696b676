"""Browser tests of `flick studio`: the real server (the flick binary) and the real page in Chromium.

Run with Tests/StudioBrowser/run (make test-studio). FLICK picks the binary (default
.build/debug/flick); STUDIO_SCREENSHOTS=DIR also writes the docs' screenshots into DIR.
"""

import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
from studio_harness import (Studio, blob_bytes, copy_templates, flick, launch_browser,  # noqa: E402
                            vm_rss_kb, wait_js, wait_until)
from playwright.sync_api import sync_playwright  # noqa: E402
from test_studio_gaps import GapTests  # noqa: E402
from test_studio_folder import StudioFolderTests  # noqa: E402,F401 (run with these tests)
from test_studio_state import StudioStateTests  # noqa: E402,F401 (run with these tests)

TEMPLATE = "card-swap.json5"
SHOTS = os.environ.get("STUDIO_SCREENSHOTS")


class StudioBrowserTests(GapTests, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder = copy_templates([TEMPLATE, "hello.json5", "spring-gallery.json5"])
        cls.template_path = os.path.join(cls.folder, TEMPLATE)
        cls.prepare_gaps(cls.folder)
        with open(cls.template_path) as f:
            cls.original = f.read()
        cls.studio = Studio(cls.folder)
        cls.playwright = sync_playwright().start()
        cls.browser = launch_browser(cls.playwright)
        cls.scratch = tempfile.mkdtemp(prefix="flick-studio-out-")

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls.playwright.stop()
        status = cls.studio.stop()
        shutil.rmtree(os.path.dirname(cls.folder), ignore_errors=True)
        shutil.rmtree(cls.scratch, ignore_errors=True)
        if status not in (0, 130):
            raise AssertionError(f"flick studio exited {status} on SIGTERM (expected 0 or 130)")

    # ------------------------------------------------------------------------------------------

    def setUp(self):
        self.context = self.browser.new_context(viewport={"width": 1440, "height": 900}, device_scale_factor=1)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)

    def tearDown(self):
        self.context.close()
        with open(self.template_path) as f:
            if f.read() != self.original:
                before = self.studio.get_json("/api/template", template=TEMPLATE)["revision"]
                self.write_template(self.original)
                self.wait_for_revision_change(before)

    def open(self, template=TEMPLATE):
        self.page.goto(f"{self.studio.url}#{urllib.parse.quote(template)}")
        self.wait_js(
            "document.body.dataset.ready === 'true' && document.body.dataset.shownFrame !== undefined", timeout=30000)
        # The page works on the token in its URLs alone: no cookie, which the browser would also
        # send to every other server on 127.0.0.1.
        self.assertEqual(self.context.cookies(), [], "the studio set a cookie")

    def wait_js(self, expression, timeout=10000, arg=None):
        return wait_js(self.page, expression, timeout=timeout, arg=arg)

    def settle(self):
        self.page.evaluate("() => window.studio.settled()")

    def shown_frame(self):
        return int(self.page.evaluate("document.body.dataset.shownFrame"))

    def still(self, *args):
        out = os.path.join(self.scratch, f"still-{time.monotonic_ns()}.png")
        flick("still", self.template_path, *args, "-o", out, "-q")
        with open(out, "rb") as f:
            return f.read()

    def write_template(self, text):
        # Editors save by writing a new file and renaming it over the old one.
        temp = self.template_path + ".tmp~"
        with open(temp, "w") as f:
            f.write(text)
        os.replace(temp, self.template_path)

    def wait_for_revision_change(self, before=None):
        if before is None:
            before = self.studio.get_json("/api/template", template=TEMPLATE)["revision"]
        return wait_until(
            lambda: self.studio.get_json("/api/template", template=TEMPLATE)["revision"] != before, 10,
            message="the template's revision changing")

    def shot(self, name):
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            self.page.screenshot(path=os.path.join(SHOTS, name))

    def assertNoPageErrors(self):
        self.assertEqual(self.errors, [], "JavaScript errors on the page")

    # ------------------------------------------------------------------------------------------

    def test_page_loads_without_errors(self):
        self.open()
        names = self.page.eval_on_selector_all("#templates .template-item", "els => els.map(e => e.dataset.name)")
        self.assertIn(TEMPLATE, names)
        self.assertEqual(self.page.text_content("#template-name"), TEMPLATE)
        rows = self.page.eval_on_selector_all(".tl-row", "els => els.length")
        tracks = self.studio.get_json("/api/template", template=TEMPLATE)["tracks"]
        self.assertEqual(rows, len(tracks))
        self.wait_js("document.body.dataset.events === 'open'")
        self.assertNoPageErrors()

    def test_frame_at_half_is_the_still_at_half(self):
        self.open()
        expected = self.still("--at", "50%")
        self.page.evaluate("window.studio.seekPercent(50)")
        frame = self.page.evaluate("window.studio.frameAtPercent(50)")
        self.wait_js(f"document.body.dataset.shownFrame === '{frame}'")
        self.settle()
        self.assertEqual(blob_bytes(self.page), expected, "the PNG the page decoded differs from flick still --at 50%")
        url = self.page.evaluate("document.body.dataset.frameUrl")
        status, headers, payload = self.studio.request("GET", url)
        self.assertEqual(status, 200)
        self.assertEqual(payload, expected, f"{url} differs from flick still --at 50%")
        self.assertEqual(headers.get("Cache-Control"), "no-store")
        self.shot("viewer.png")
        self.assertNoPageErrors()

    def test_editing_the_template_updates_the_page(self):
        # Each edit must reach the page, keep the frame and show the edited template's exact
        # bytes. The latencies are printed, not bounded: on a shared machine load alone takes the
        # fastest of three edits past a second (1.8 s at load 19), so a bound here tests the machine.
        self.open()
        self.page.evaluate("window.studio.seekFrame(12)")
        self.wait_js("document.body.dataset.shownFrame === '12'")
        self.settle()
        elapsed = []
        for label in ("Next week", "Last week", "This month"):
            before = blob_bytes(self.page)
            edited = self.original.replace('default: "This week"', f'default: "{label}"')
            self.assertNotEqual(edited, self.original)
            start = time.monotonic()
            self.write_template(edited)
            self.wait_js(
                "(old) => document.body.dataset.blobUrl !== old",
                arg=self.page.evaluate("document.body.dataset.blobUrl"), timeout=5000)
            elapsed.append(time.monotonic() - start)
            self.settle()
            self.assertEqual(self.shown_frame(), 12, "the reload kept the current frame")
            after = blob_bytes(self.page)
            self.assertNotEqual(after, before)
            self.assertEqual(after, self.still("--frame", "12"), "the reloaded frame is not the edited template's")
        print(f"reload latencies: {', '.join(f'{e:.2f} s' for e in elapsed)}")
        self.assertNoPageErrors()

    def test_syntax_error_shows_where_and_the_page_recovers(self):
        self.open()
        self.page.evaluate("window.studio.seekFrame(30)")
        self.wait_js("document.body.dataset.shownFrame === '30'")
        self.settle()
        # The frame's bytes, not its blob URL: the page may ask for the last good revision's
        # frame again while the error shows (an answer it had dropped as stale), which makes a
        # new blob of the same bytes.
        good = blob_bytes(self.page)
        broken = self.original.replace('name: "card-swap",', 'name: "card-swap",\n  canvas: { width: 960 height: 540 },', 1)
        with open(os.path.join(self.scratch, TEMPLATE), "w") as f:
            f.write(broken)
        # The CLI's message for the same file, named as the studio names it (relative to the folder).
        cli = flick("info", TEMPLATE, check=False, cwd=self.scratch)
        self.assertEqual(cli.returncode, 2)
        message = cli.stderr.strip().splitlines()[0]
        match = re.match(r"flick: card-swap\.json5:(\d+):(\d+): ", message)
        self.assertIsNotNone(match, message)
        location = f"{TEMPLATE}:{match.group(1)}:{match.group(2)}"
        self.write_template(broken)
        self.page.wait_for_selector("#error-overlay:not([hidden])", timeout=5000)
        self.assertEqual(self.page.text_content(".err-location"), location)
        self.assertEqual(self.page.text_content(".err-text"), message)
        self.assertIn("height: 540", self.page.text_content(".err-line"))
        self.assertIn("^", self.page.text_content(".err-caret"))
        self.settle()
        self.assertEqual(blob_bytes(self.page), good, "the last good frame stays")
        self.shot("error.png")
        self.write_template(self.original)
        self.page.wait_for_selector("#error-overlay", state="hidden", timeout=5000)
        self.settle()
        self.assertEqual(blob_bytes(self.page), self.still("--frame", "30"))
        self.assertNoPageErrors()

    def test_parameter_change_gives_the_frame_of_set(self):
        self.open()
        self.page.evaluate("window.studio.seekFrame(20)")
        self.wait_js("document.body.dataset.shownFrame === '20'")
        self.page.click("#tab-params")
        self.page.fill("#param-title1", "Evening swim")
        self.page.press("#param-title1", "Enter")
        self.page.fill("#param-color1", "#22C55E")
        self.page.press("#param-color1", "Enter")
        expected = self.still("--frame", "20", "--set", "title1=Evening swim", "--set", "color1=#22C55E")
        try:
            wait_until(lambda: blob_bytes(self.page) == expected, 10, interval=0.1,
                       message="the page showing the frame of --set title1=… --set color1=…")
            options = self.page.evaluate("document.querySelector('#set-preview').dataset.options")
            self.assertEqual(options, "--set 'title1=Evening swim' --set color1=#22C55E")
            self.assertEqual(self.studio.get_json("/api/params", template=TEMPLATE)["values"]["title1"], "Evening swim")
            self.shot("parameters.png")
            # A value the CLI refuses is refused with its message, under the field.
            self.page.fill("#param-progress1", "7")
            self.page.press("#param-progress1", "Enter")
            self.page.wait_for_selector(".param[data-name='progress1'].invalid .param-error", timeout=5000)
            self.assertIn("progress1", self.page.text_content(".param[data-name='progress1'] .param-error"))
        finally:
            self.page.click("#reset-params")
            wait_until(lambda: self.studio.get_json("/api/params", template=TEMPLATE)["values"]["title1"] == "Morning run",
                       10, message="the parameters reset")
        self.errors = [e for e in self.errors if "400" not in e]  # the refused value's answer
        self.assertNoPageErrors()

    def test_plotted_trace_is_flick_trace(self):
        self.open()
        # Clicking a segment seeks to its start and plots that layer's property.
        segment = self.page.locator(".tl-row[data-layer='c2'][data-property='position'] .tl-seg").last
        start = float(segment.get_attribute("data-start"))
        segment.click()
        self.assertEqual(self.page.evaluate("window.studio.state.frame"), round(start * 30))
        self.assertEqual(self.page.evaluate("window.studio.state.property"), "position")
        self.assertEqual(self.page.evaluate("window.studio.state.selected"), "c2")
        self.wait_js("window.studio.state.trace !== null && window.studio.state.trace.property === 'position'")
        plotted = self.page.evaluate("window.studio.state.trace")
        cli = json.loads(
            flick("trace", self.template_path, "--layer", "c2", "--property", "position", "--format", "json").stdout)
        self.assertEqual(plotted["samples"], cli["samples"])
        self.assertGreater(len(self.page.evaluate("window.studio.state.info.tracks.find(t => t.layer === 'c2' && "
                                                  "t.property === 'position').joins")), 0)
        self.assertEqual(len(plotted["samples"]), self.studio.get_json("/api/template", template=TEMPLATE)["canvas"]["frameCount"])
        # Mid-flick (2.8 s): c2 dragged and turning; its outline follows its transform.
        self.page.evaluate("window.studio.seekFrame(84)")
        self.wait_js("document.body.dataset.shownFrame === '84'")
        self.settle()
        self.page.wait_for_timeout(150)
        self.shot("inspector.png")
        self.assertNoPageErrors()

    def test_clicking_a_layer_selects_it(self):
        self.open("hello.json5")
        self.page.evaluate("window.studio.seekFrame(0)")
        self.wait_js("document.body.dataset.shownFrame === '0'")
        box = self.page.locator("#viewer").bounding_box()

        def click(x, y):  # canvas points of hello's 640 × 360 canvas
            self.page.mouse.click(box["x"] + x / 640 * box["width"], box["y"] + y / 360 * box["height"])

        # At t = 0 the card (120 × 120) is centred on (160, 180); its badge (44 × 44) on the card's centre.
        for point, layer in [((118, 140), "card"), ((160, 180), "badge"), ((50, 50), "")]:
            click(*point)
            self.wait_js(f"document.body.dataset.selectedLayer === '{layer}'", timeout=5000)
            if layer:
                self.wait_js(f"document.querySelector('.insp-layer').textContent === '{layer}'")
                pressed = self.page.get_attribute(f"#layers .layer-item[data-layer='{layer}']", "aria-pressed")
                self.assertEqual(pressed, "true")
                rows = self.page.eval_on_selector_all(".props tr", "els => els.map(e => e.dataset.property)")
                self.assertIn("position", rows)
        # The card's outline: its bounds through its transform at t = 0 (120 × 120 around (160, 180)).
        click(118, 140)
        self.wait_js("document.body.dataset.selectedLayer === 'card'", timeout=5000)
        outline = self.wait_js("window.studio.viewer.outline")
        self.assertEqual(outline, [[100, 120], [220, 120], [220, 240], [100, 240]])
        self.assertNoPageErrors()

    def test_keyboard(self):
        self.open()
        self.page.evaluate("window.studio.seekFrame(0)")
        self.page.focus("#viewer")
        count = self.studio.get_json("/api/template", template=TEMPLATE)["canvas"]["frameCount"]
        for key, frame in [("End", count - 1), ("Home", 0), ("ArrowRight", 1), ("Shift+ArrowRight", 11),
                           ("ArrowLeft", 10), ("Shift+ArrowLeft", 0)]:
            self.page.keyboard.press(key)
            self.assertEqual(self.page.evaluate("window.studio.state.frame"), frame, key)
        self.page.keyboard.press("Space")
        self.assertTrue(self.page.evaluate("window.studio.playback.playing"))
        self.wait_js("window.studio.state.frame > 3")
        self.page.keyboard.press("k")
        self.assertFalse(self.page.evaluate("window.studio.playback.playing"))
        self.page.keyboard.press("l")
        self.page.keyboard.press("l")
        self.assertEqual(self.page.evaluate("window.studio.playback.speed"), 2)
        self.page.keyboard.press("j")
        self.assertEqual(self.page.evaluate("window.studio.playback.direction"), -1)
        self.page.keyboard.press("Space")
        self.assertFalse(self.page.evaluate("window.studio.playback.playing"))
        # Tab order reaches the transport with visible focus.
        self.page.focus("#play")
        self.page.keyboard.press("Tab")
        self.assertEqual(self.page.evaluate("document.activeElement.id"), "step-forward")
        self.assertNoPageErrors()

    def test_refuses_traversal_other_hosts_and_missing_tokens(self):
        outside = tempfile.mkdtemp(prefix="flick-studio-outside-")
        try:
            shutil.copy(os.path.join(self.folder, "hello.json5"), os.path.join(outside, "secret.json5"))
            os.symlink(os.path.join(outside, "secret.json5"), os.path.join(self.folder, "escape.json5"))
            os.symlink(outside, os.path.join(self.folder, "elsewhere"))
            refused = [
                "/api/frame.png?template=../secret.json5",
                "/api/frame.png?template=%2e%2e%2fsecret.json5",
                "/api/frame.png?template=%2E%2E/secret.json5",
                "/api/frame.png?template=images/..%2f..%2fsecret.json5",
                "/api/frame.png?template=" + urllib.parse.quote(os.path.join(outside, "secret.json5"), safe=""),
                "/api/frame.png?template=escape.json5",
                "/api/frame.png?template=elsewhere/secret.json5",
                "/api/template?template=elsewhere%2fsecret.json5",
                "/api/trace?template=..%2Fsecret.json5&layer=card&property=position",
                "/api/file?path=../secret.json5",
                "/api/file?path=%2e%2e/secret.json5",
                "/api/file?path=elsewhere/secret.json5",
                "/api/file?path=%2Fetc%2Fpasswd",
            ]
            for target in refused:
                status, _, payload = self.studio.request("GET", target)
                self.assertEqual(status, 403, f"{target} answered {status}")
                self.assertIn(b'"error"', payload, target)
            for target in ["/../../../../etc/passwd", "/studio/../../../../etc/passwd",
                           "/studio/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/studio/..%2f..%2f..%2fetc%2fpasswd"]:
                status, _, payload = self.studio.request("GET", target)
                self.assertIn(status, (400, 403, 404), f"{target} answered {status}")
                self.assertNotIn(b"root:", payload, target)
            # Inside the folder the same requests work.
            self.assertEqual(self.studio.request("GET", "/api/file?path=images%2Fcover.png")[0], 200)
            # Hosts other than the bound address (DNS rebinding) and missing or wrong tokens.
            ok = f"/api/template?template={TEMPLATE}"
            self.assertEqual(self.studio.request("GET", ok)[0], 200)
            for host in [f"evil.example:{self.studio.port}", "evil.example", f"127.0.0.1.nip.io:{self.studio.port}",
                         f"localhost.evil.example:{self.studio.port}"]:
                self.assertEqual(self.studio.request("GET", ok, host=host)[0], 403, host)
            self.assertEqual(self.studio.request("GET", ok, host=f"localhost:{self.studio.port}")[0], 200)
            self.assertEqual(self.studio.request("GET", ok, token=False)[0], 401)
            self.assertEqual(self.studio.request("GET", ok + "&token=" + "0" * 32, token=False)[0], 403)
            self.assertEqual(self.studio.request("GET", "/", token=False)[0], 401)
            # POSTs need the CSRF header.
            status, _, _ = self.studio.request("POST", f"/api/params?template={TEMPLATE}", body={"values": {}})
            self.assertEqual(status, 403)
        finally:
            os.unlink(os.path.join(self.folder, "escape.json5"))
            os.unlink(os.path.join(self.folder, "elsewhere"))
            shutil.rmtree(outside)

    def test_two_hundred_concurrent_frames_and_flat_memory(self):
        frames = self.studio.get_json("/api/template", template=TEMPLATE)["canvas"]["frameCount"]

        def burst():
            statuses = [None] * 200
            sizes = [0] * 200

            def one(i):
                try:
                    status, _, payload = self.studio.get("/api/frame.png", template=TEMPLATE, frame=(i * 7) % frames)
                    statuses[i] = status
                    sizes[i] = len(payload)
                except Exception as error:  # noqa: BLE001 — reported below
                    statuses[i] = repr(error)

            threads = [threading.Thread(target=one, args=(i,)) for i in range(200)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(300)
            return statuses, sizes

        statuses, sizes = burst()
        self.assertEqual([s for s in statuses if s != 200], [], "every request of the first burst answered 200")
        self.assertTrue(all(size > 1000 for size in sizes))
        first = vm_rss_kb(self.studio.pid)
        for _ in range(2):
            statuses, _ = burst()
            self.assertEqual([s for s in statuses if s != 200], [])
        last = vm_rss_kb(self.studio.pid)
        growth = last - first
        self.assertLess(growth, max(32_000, first // 10),
                        f"RSS grew from {first} kB to {last} kB over 400 more frame requests")

    def test_superseded_scrub_requests_are_cancelled(self):
        # Same client, rising seq: older requests not yet rendering answer 204, the newest 200.
        results = {}

        def one(seq):
            status, _, _ = self.studio.get("/api/frame.png", template=TEMPLATE, frame=seq, client="scrub", seq=seq)
            results[seq] = status

        threads = []
        for seq in range(1, 31):
            t = threading.Thread(target=one, args=(seq,))
            t.start()
            threads.append(t)
            time.sleep(0.002)
        for t in threads:
            t.join(120)
        self.assertEqual(results[30], 200)
        self.assertTrue(set(results.values()) <= {200, 204}, results)
        self.assertIn(204, results.values(), "no superseded request was cancelled")

    def test_compare_and_accept(self):
        goldens = os.path.join(self.folder, "goldens")
        flick("snapshot", self.template_path, "--at", "0,50%", "--out", goldens)
        report = os.path.join(self.folder, "report")
        verify = flick("verify", self.template_path, "--against", goldens, "--report", report,
                       "--set", "color1=#22C55E", check=False)
        self.assertEqual(verify.returncode, 1, verify.stderr)
        try:
            self.open()
            self.page.evaluate("window.studio.openCompare('report', 'report')")
            self.page.wait_for_selector(".cmp-frame.s-fail", timeout=10000)
            self.wait_js("[...document.querySelectorAll('#compare .cmp-side img')]"
                         ".every(i => i.hidden || (i.complete && i.naturalWidth > 0))")
            self.page.wait_for_timeout(200)
            self.shot("compare.png")
            for mode in ("slider", "flicker", "side"):
                self.page.click(f"[data-mode='{mode}']")
                self.assertEqual(self.page.get_attribute(f"[data-mode='{mode}']", "aria-pressed"), "true")
            # The goldens folder comes from the report's golden paths; the golden image from there.
            self.assertEqual(self.page.input_value("#cmp-against"), "goldens")
            self.assertFalse(self.page.locator("#compare .cmp-side img[data-kind='golden']").is_hidden())
            self.page.click(".cmp-accept")
            self.page.wait_for_selector(".cmp-frame.s-accepted", timeout=10000)
            again = flick("verify", self.template_path, "--against", goldens, "--set", "color1=#22C55E", check=False)
            self.assertEqual(again.returncode, 0, again.stderr)
            # A goldens folder lists its frames with the golden image only.
            self.page.evaluate("window.studio.openCompare('goldens', 'goldens')")
            self.page.wait_for_selector(".cmp-frame.s-golden", timeout=10000)
        finally:
            shutil.rmtree(goldens, ignore_errors=True)
            shutil.rmtree(report, ignore_errors=True)
        self.assertNoPageErrors()

    def test_export_is_flick_render(self):
        self.open("hello.json5")
        self.page.click("#open-export")
        self.page.select_option("#exp-format", "gif")
        self.page.fill("#exp-output", "hello-export.gif")
        # Every status the dialog shows, in order: after the frames come the GIF's encoding pass
        # (its frames go to ffmpeg once the palette is known) and gifsicle.
        self.page.evaluate("""() => {
            window.exportStatuses = [];
            window.exportSweeps = [];
            const status = document.querySelector('.exp-status');
            const bar = document.querySelector('.exp-bar');
            new MutationObserver(() => {
                window.exportStatuses.push(status.textContent);
                window.exportSweeps.push(getComputedStyle(bar).animationName);
            }).observe(status, {childList: true, characterData: true, subtree: true});
        }""")
        self.page.click(".exp-go")
        self.wait_js("document.querySelector('.exp-status').textContent.startsWith('Wrote')",
                                    timeout=120000)
        statuses = self.page.evaluate("window.exportStatuses")
        encoding = [s for s in statuses if s.startswith("Encoding the GIF: frame ")]
        self.assertTrue(encoding, statuses)
        self.assertTrue(encoding[-1].endswith(" of 90") and encoding[-1].startswith("Encoding the GIF: frame 90"),
                        statuses)
        self.assertLess(statuses.index(encoding[0]), statuses.index(statuses[-1]))
        # The bar sweeps while gifsicle runs (its length is not known), and only then.
        sweeps = dict(zip(statuses, self.page.evaluate("window.exportSweeps")))
        if shutil.which("gifsicle"):
            self.assertIn("Optimising the GIF (gifsicle -O3)…", statuses)
            self.assertEqual(sweeps["Optimising the GIF (gifsicle -O3)…"], "progress-sweep", sweeps)
        self.assertEqual(sweeps[statuses[-1]], "none", sweeps)
        self.assertEqual(sweeps[encoding[-1]], "none", sweeps)
        self.shot("export.png")
        expected = os.path.join(self.scratch, "hello.gif")
        flick("render", os.path.join(self.folder, "hello.json5"), "-o", expected, "--quiet")
        exported = os.path.join(self.folder, "hello-export.gif")
        with open(expected, "rb") as a, open(exported, "rb") as b:
            self.assertEqual(a.read(), b.read(), "the exported GIF differs from flick render's")
        os.unlink(exported)
        self.assertNoPageErrors()


if __name__ == "__main__":
    unittest.main(verbosity=2)
