"""Browser tests of the studio page over a folder that changes under it: the template list
follows templates added and removed, the error overlay of a template that is gone names no
line, and the opened folder removed and made again is followed again (run by test_studio.py,
which imports this module's test case)."""

import os
import shutil
import tempfile
import unittest

from studio_harness import Studio, launch_browser, wait_js
from playwright.sync_api import sync_playwright

FIRST = """{
  flick: 1,
  canvas: { width: 64, height: 36, fps: 10, duration: 1, background: "#0F172A" },
  layers: [{ id: "card", size: [20, 20], position: [32, 18], backgroundColor: "#F97316" }],
}
"""


class StudioFolderTests(unittest.TestCase):
    """A studio over an empty folder of its own, and a page on it."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="flick-studio-folder-")
        self.studio = Studio(self.folder)
        self.playwright = sync_playwright().start()
        self.browser = launch_browser(self.playwright)
        self.page = self.browser.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))

    def tearDown(self):
        self.browser.close()
        self.playwright.stop()
        self.studio.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def test_a_template_added_to_an_empty_folder_is_listed_and_opens_and_its_removal_is_said_without_line(self):
        self.page.goto(self.studio.url)
        wait_js(self.page, "document.body.dataset.ready === 'true' && document.body.dataset.events === 'open'")
        self.assertEqual(self.page.text_content("#status"), "No templates in this folder")
        path = os.path.join(self.folder, "first.json5")
        with open(path, "w") as f:
            f.write(FIRST)
        wait_js(self.page, "document.body.dataset.template === 'first.json5'")
        names = self.page.eval_on_selector_all("#templates .template-item", "els => els.map(e => e.dataset.name)")
        self.assertEqual(names, ["first.json5"])
        wait_js(self.page, "document.body.dataset.shownFrame !== undefined")
        # Removed: the error overlay names the file alone (no line or column 0), the list empties.
        os.remove(path)
        wait_js(self.page, "document.body.dataset.error !== undefined")
        self.assertEqual(self.page.evaluate("document.body.dataset.error"), "first.json5")
        self.assertEqual(self.page.text_content("#error-overlay .err-location"), "first.json5")
        wait_js(self.page, "document.querySelectorAll('#templates .template-item').length === 0")
        self.assertEqual(self.errors, [], "JavaScript errors on the page")

    def test_the_opened_folder_removed_and_made_again_is_followed_again(self):
        path = os.path.join(self.folder, "first.json5")
        with open(path, "w") as f:
            f.write(FIRST)
        self.page.goto(self.studio.url)
        wait_js(self.page, "document.body.dataset.ready === 'true' && document.body.dataset.events === 'open'")
        wait_js(self.page, "document.body.dataset.shownFrame !== undefined")
        # A branch checkout removes the folder and makes it again.
        shutil.rmtree(self.folder)
        wait_js(self.page, "document.querySelectorAll('#templates .template-item').length === 0")
        os.mkdir(self.folder)
        with open(path, "w") as f:
            f.write(FIRST)
        with open(os.path.join(self.folder, "second.json5"), "w") as f:
            f.write(FIRST)
        wait_js(self.page, "document.querySelectorAll('#templates .template-item').length === 2")
        wait_js(self.page, "document.body.dataset.error === undefined")
        # Its files are watched again: an edit reloads.
        revision = int(self.page.evaluate("document.body.dataset.revision"))
        with open(path, "w") as f:
            f.write(FIRST.replace("#F97316", "#22C55E"))
        wait_js(self.page, f"Number(document.body.dataset.revision) > {revision}")
        self.assertEqual(self.errors, [], "JavaScript errors on the page")
