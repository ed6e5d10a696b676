"""Browser tests of the studio's timeline events, velocity jumps, file pickers, font reload,
per-frame accept and playback under load (a mixin of test_studio.StudioBrowserTests, which
provides the running studio, the browser and the helpers)."""

import json
import os
import shutil
import time

from studio_harness import blob_bytes, flick, wait_until

GAPS = "gaps.json5"
TEMPLATE = "card-swap.json5"
FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
DEJAVU = "/usr/share/fonts/truetype/dejavu/"


def renamed_font(source, family):
    """The bytes of a DejaVu Sans font file with its family renamed `family` (11 letters)."""
    assert len(family) == 11
    with open(os.path.join(DEJAVU, source), "rb") as f:
        data = f.read()
    old = "DejaVu Sans"
    data = data.replace(old.encode(), family.encode())
    return data.replace(old.encode("utf-16-be"), family.encode("utf-16-be"))


class GapTests:
    """Mixed into StudioBrowserTests (one studio and one browser for every test)."""

    @classmethod
    def prepare_gaps(cls, folder):
        """Writes the gaps template, its fonts and a second picture into the test folder."""
        shutil.copy(os.path.join(FIXTURES, GAPS), os.path.join(folder, GAPS))
        os.makedirs(os.path.join(folder, "fonts"), exist_ok=True)
        cls.regular_font = renamed_font("DejaVuSans.ttf", "Qwerty Sans")
        cls.bold_font = renamed_font("DejaVuSans-Bold.ttf", "Qwerty Sans")
        for name, data in [("Brand.ttf", cls.regular_font), ("Other.ttf", renamed_font("DejaVuSans.ttf", "Qwerty Othr"))]:
            with open(os.path.join(folder, "fonts", name), "wb") as f:
                f.write(data)
        flick("still", os.path.join(folder, "hello.json5"), "-o", os.path.join(folder, "images", "still.png"), "-q")

    def gaps_still(self, *args):
        out = os.path.join(self.scratch, f"gaps-{time.monotonic_ns()}.png")
        flick("still", GAPS, *args, "-o", out, "-q", cwd=self.folder)
        with open(out, "rb") as f:
            return f.read()

    def test_an_export_with_a_warning_shows_it_under_its_size(self):
        # The "done" event of an export whose gifsicle failed carries the warning
        # (StudioExportTests makes one with a failing gifsicle); the dialog shows it in the
        # warning colour under the size, and the notice says there is one.
        self.open("hello.json5")
        self.page.click("#open-export")
        warning = ("warning: gifsicle /opt/bin/gifsicle could not optimise hello.gif (it exited with status 1: "
                   "gifsicle: out of cheese); kept Flick's own GIF")
        self.page.evaluate("""(warning) => {
            const exporter = window.studio.exporter;
            exporter.job = 991;
            exporter.done({job: 991, output: 'hello.gif', bytes: 2400000, warnings: [warning]});
        }""", warning)
        status = self.page.inner_text(".exp-status")
        self.assertTrue(status.startswith("Wrote hello.gif (2.4 MB)"), status)
        self.assertEqual(self.page.inner_text(".exp-status .exp-warning"), warning)
        colour = self.page.eval_on_selector(".exp-status .exp-warning", "e => getComputedStyle(e).color")
        self.assertEqual(colour, "rgb(251, 191, 36)")  # --warn
        self.wait_js("document.querySelector('#toast').textContent.includes('with a warning')")
        self.shot("export-warning.png")
        # The next export's status starts clean.
        self.page.evaluate("window.studio.exporter.setProgress(0, 'Starting…')")
        self.assertEqual(self.page.query_selector_all(".exp-status .exp-warning"), [])
        self.page.keyboard.press("Escape")
        self.assertNoPageErrors()

    def test_events_are_on_the_timeline_and_seek(self):
        self.open(GAPS)
        flags = self.page.eval_on_selector_all(
            "#timeline .tl-event", "els => els.map(e => [e.dataset.name, Number(e.dataset.time)])")
        self.assertEqual(flags, [["go", 0], ["stop", 0.5]])
        self.page.evaluate("window.studio.seekFrame(50)")
        self.page.click("#timeline .tl-event[data-name='stop']")
        self.assertEqual(self.page.evaluate("window.studio.state.frame"), 15)
        self.wait_js("document.body.dataset.shownFrame === '15'")
        self.assertNoPageErrors()

    def test_velocity_jumps_come_from_the_join_limits(self):
        self.open(GAPS)
        state = self.studio.get_json("/api/template", template=GAPS)
        by_layer = {t["layer"]: t for t in state["tracks"] if t["property"] == "position"}
        self.assertTrue(by_layer["a"]["handOvers"][0]["discontinuous"])
        self.assertFalse(by_layer["b"]["handOvers"][0]["discontinuous"])
        marks = self.page.eval_on_selector_all(
            ".tl-row[data-property='position'] .tl-join",
            "els => els.map(e => [e.closest('.tl-row').dataset.layer, e.classList.contains('disc')])")
        self.assertEqual(sorted(marks), [["a", True], ["b", False]])
        # The legend and segment colours are the server's kinds.
        legend = self.page.eval_on_selector_all("#timeline .tl-legend .tl-key", "els => els.map(e => e.textContent)")
        self.assertEqual(legend[:-2], [k["name"] for k in state["kinds"]])
        color = self.page.eval_on_selector_all(
            ".tl-row[data-layer='b'][data-property='position'] .tl-seg",
            "els => getComputedStyle(els[els.length - 1]).getPropertyValue('--k').trim()")
        self.assertEqual(color, next(k["color"] for k in state["kinds"] if k["name"] == "spring"))
        # The plot marks the jump of a's position at the join, none for b's.
        self.page.evaluate("window.studio.selectLayer('a', {property: 'position'})")
        self.wait_js("document.body.dataset.traceProperty === 'a.position'")
        self.assertEqual(self.page.evaluate("document.body.dataset.velocityJumps"), "0.5")
        self.assertIn("1 velocity jump", self.page.text_content("#plot-note"))
        self.shot("velocity-jump.png")
        self.page.evaluate("window.studio.selectLayer('b', {property: 'position'})")
        self.wait_js("document.body.dataset.traceProperty === 'b.position'")
        self.assertEqual(self.page.evaluate("document.body.dataset.velocityJumps"), "")
        self.assertNoPageErrors()

    def test_image_and_font_parameters_are_picked_from_the_folder(self):
        self.open(GAPS)
        self.page.evaluate("window.studio.seekFrame(10)")
        self.page.click("#tab-params")
        self.wait_js("document.body.dataset.pickers === 'image,font'")
        images = self.page.eval_on_selector_all("#param-photo option", "els => els.map(e => e.value)")
        self.assertEqual(images, ["images/cover.png", "images/still.png"])
        fonts = self.page.eval_on_selector_all("#param-face option", "els => els.map(e => e.value)")
        self.assertEqual(fonts, ["fonts/Brand.ttf", "fonts/Other.ttf"])
        self.assertEqual(self.page.input_value("#param-photo"), "images/cover.png")
        try:
            self.page.select_option("#param-photo", "images/still.png")
            self.page.select_option("#param-face", "fonts/Other.ttf")
            expected = self.gaps_still("--frame", "10", "--set", "face=fonts/Other.ttf",
                                       "--set", "photo=images/still.png")
            wait_until(lambda: blob_bytes(self.page) == expected, 10, interval=0.1,
                       message="the page showing the frame of the picked files")
            options = self.page.evaluate("document.querySelector('#set-preview').dataset.options")
            self.assertEqual(options, "--set photo=images/still.png --set face=fonts/Other.ttf")
            self.shot("pickers.png")
        finally:
            self.page.click("#reset-params")
            wait_until(lambda: self.studio.get_json("/api/params", template=GAPS)["values"]["photo"].endswith("cover.png"),
                       10, message="the parameters reset")
        self.assertNoPageErrors()

    def test_an_edited_font_file_is_redrawn(self):
        self.open(GAPS)
        self.page.evaluate("window.studio.seekFrame(20)")
        self.wait_js("document.body.dataset.shownFrame === '20'")
        self.settle()
        before = blob_bytes(self.page)
        path = os.path.join(self.folder, "fonts", "Brand.ttf")
        try:
            temp = os.path.join(self.folder, "fonts", ".Brand.ttf.tmp")
            with open(temp, "wb") as f:
                f.write(self.bold_font)
            old = self.page.evaluate("document.body.dataset.blobUrl")
            os.replace(temp, path)
            self.wait_js("(old) => document.body.dataset.blobUrl !== old", arg=old, timeout=5000)
            self.settle()
            after = blob_bytes(self.page)
            self.assertNotEqual(after, before, "the edited font was not drawn")
            self.assertEqual(after, self.gaps_still("--frame", "20"), "the frame differs from a new flick still")
        finally:
            with open(path, "wb") as f:
                f.write(self.regular_font)
        self.assertNoPageErrors()

    def test_accept_one_frame(self):
        goldens = os.path.join(self.folder, "goldens1")
        report = os.path.join(self.folder, "report1")
        flick("snapshot", self.template_path, "--at", "0,20%", "--out", goldens)
        # Both goldens drift (their pictures replaced by another colour's, the design and the
        # manifest unchanged): verify fails on both. A report of a changed design (another
        # --set, say) is accepted whole only (FlickSnapshotTests' PartialRecordTests).
        other = os.path.join(self.scratch, "goldens-other")
        flick("snapshot", self.template_path, "--at", "0,20%", "--out", other, "--set", "color1=#22C55E")
        for name in os.listdir(other):
            if name.endswith(".png"):
                shutil.copyfile(os.path.join(other, name), os.path.join(goldens, name))
        shutil.rmtree(other, ignore_errors=True)
        verify = flick("verify", self.template_path, "--against", goldens, "--report", report, check=False)
        self.assertEqual(verify.returncode, 1, verify.stderr)
        try:
            self.open()
            self.page.evaluate("window.studio.openCompare('report1', 'report')")
            self.page.wait_for_selector(".cmp-frame.s-fail", timeout=10000)
            failed = self.page.eval_on_selector_all(".cmp-frame.s-fail", "els => els.map(e => e.dataset.name)")
            self.assertEqual(len(failed), 2)
            with open(os.path.join(goldens, f"{failed[1]}.png"), "rb") as f:
                other_golden = f.read()
            self.page.click(f".cmp-frame[data-name='{failed[0]}']")
            self.page.click(".cmp-accept-one")
            self.page.wait_for_selector(f".cmp-frame.s-accepted[data-name='{failed[0]}']", timeout=10000)
            self.assertEqual(
                self.page.eval_on_selector_all(".cmp-frame.s-fail", "els => els.map(e => e.dataset.name)"), [failed[1]])
            self.assertTrue(self.page.is_disabled(".cmp-accept-one"))
            with open(os.path.join(goldens, f"{failed[0]}.png"), "rb") as f, \
                    open(os.path.join(report, failed[0], "actual.png"), "rb") as g:
                self.assertEqual(f.read(), g.read(), "the accepted golden is not the actual frame")
            with open(os.path.join(goldens, f"{failed[1]}.png"), "rb") as f:
                self.assertEqual(f.read(), other_golden, "a frame that was not accepted changed")
            again = flick("verify", self.template_path, "--against", goldens,
                          "--report", os.path.join(self.scratch, "report-again"), check=False)
            self.assertEqual(again.returncode, 1, "the frame not accepted still fails")
        finally:
            shutil.rmtree(goldens, ignore_errors=True)
            shutil.rmtree(report, ignore_errors=True)
        self.assertNoPageErrors()

    def test_playback_drops_frames_rather_than_lag(self):
        # Every frame is answered 150 ms after it is asked for (about 6 frames of 30 fps; the
        # answer is one frame's PNG, so the server's speed on a loaded machine plays no part):
        # the page must keep to the clock, showing the frame due when an answer arrives, not
        # every frame late.
        self.open()
        state = self.studio.get_json("/api/template", template=TEMPLATE)
        count = state["canvas"]["frameCount"]
        status, _, png = self.studio.get("/api/frame.png", template=TEMPLATE, frame=0)
        self.assertEqual(status, 200)
        headers = {"Content-Type": "image/png", "Cache-Control": "no-store", "X-Flick-Render-Ms": "1",
                   "X-Flick-Revision": str(state["revision"])}

        def slow(route):
            time.sleep(0.15)
            route.fulfill(status=200, headers=headers, body=png)

        self.page.route("**/api/frame.png*", slow)
        try:
            self.page.evaluate("window.studio.seekFrame(0)")
            # The page records each frame it shows, with the frame the clock wanted then and the
            # fps readout (the Python side is busy answering the requests meanwhile).
            self.page.evaluate("""() => {
              window.shownLog = [];
              new MutationObserver(() => window.shownLog.push([performance.now(), window.studio.playback.current,
                Number(document.body.dataset.shownFrame), document.querySelector('#fps').textContent]))
                .observe(document.body, { attributes: true, attributeFilter: ['data-shown-frame'] });
              window.studio.playback.loop = false;
              window.studio.playback.play(0);
            }""")
            self.page.wait_for_timeout(3000)
            # A loaded machine answers the delayed requests more slowly: play on (10 s at most)
            # until enough frames were shown after the first half second to judge the pace.
            for _ in range(14):
                later_count = self.page.evaluate(
                    "window.shownLog.filter(s => s[0] - window.shownLog[0][0] > 500).length")
                if later_count > 5:
                    break
                self.page.wait_for_timeout(500)
            shown = self.page.evaluate("window.studio.playback.pause(); window.studio.playback.loop = true; "
                                       "window.shownLog")
        finally:
            self.page.unroute("**/api/frame.png*")
        lags = [due - seen for _, due, seen, _ in shown]
        print(f"playback under a 150 ms delay: frames shown {[s[2] for s in shown]}, lags {lags}, "
              f"readouts {[s[3] for s in shown]}")
        # Frames were dropped (far fewer shown than due), and the shown frame kept pace with the
        # clock: after the first half second it advanced about as far as the clock did. A page that
        # showed every frame late would advance only as fast as frames arrive (a fifth of the
        # clock or less here), its lag growing all the time.
        later = [s for s in shown if s[0] - shown[0][0] > 500]
        self.assertGreater(len(later), 3, shown)
        due_advance = later[-1][1] - later[0][1]
        shown_advance = later[-1][2] - later[0][2]
        self.assertGreater(due_advance, 20, shown)
        self.assertLess(len(shown), due_advance, "no frame was dropped")
        self.assertGreater(shown_advance / due_advance, 0.6, f"the shown frame fell behind the clock: {lags}")
        readouts = [s[3] for s in later]
        self.assertTrue(any(r.endswith("/ 30 fps") and float(r.split()[0]) < 30 for r in readouts), readouts)
        self.assertNoPageErrors()
