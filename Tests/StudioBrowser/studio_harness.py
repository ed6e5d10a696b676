"""Starts a real `flick studio` on a copy of templates and drives it with Chromium (Playwright).

Shared by the browser tests (test_studio.py) and the benchmark (Benchmarks/studio/bench.py).
"""

import base64
import http.client
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FLICK = os.path.abspath(os.environ.get("FLICK", os.path.join(ROOT, ".build", "debug", "flick")))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def flick(*args, check=True, cwd=None):
    """Runs the flick binary; returns the CompletedProcess (text output)."""
    result = subprocess.run([FLICK, *args], capture_output=True, text=True, cwd=cwd, timeout=300)
    if check and result.returncode != 0:
        raise AssertionError(f"flick {' '.join(args)} exited {result.returncode}: {result.stderr.strip()}")
    return result


def copy_templates(names, folder=None):
    """A folder `Templates` in a new temporary folder, with copies of bundled templates (and the
    assets they read); remove it with its parent (`shutil.rmtree(os.path.dirname(folder))`)."""
    if folder is None:
        folder = os.path.join(tempfile.mkdtemp(prefix="flick-studio-test-"), "Templates")
        os.mkdir(folder)
    source = os.path.join(ROOT, "Templates")
    for name in names:
        shutil.copy(os.path.join(source, name), os.path.join(folder, name))
    for extra in ("schema.json",):
        shutil.copy(os.path.join(source, extra), os.path.join(folder, extra))
    for sub in ("images", "lottie"):
        shutil.copytree(os.path.join(source, sub), os.path.join(folder, sub), dirs_exist_ok=True)
    return folder


def vm_rss_kb(pid):
    """Resident memory of a process (VmRSS, kB)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


class Studio:
    """`flick studio --no-open --port PORT FOLDER` (any free port by default), its URL, and a
    clean stop by PID."""

    def __init__(self, folder, *extra, port=0):
        self.folder = folder
        self.process = subprocess.Popen(
            [FLICK, "studio", "--no-open", "--port", str(port), *extra, folder],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("http://"):
            self.process.kill()
            err = self.process.stderr.read()
            raise AssertionError(f"flick studio printed {line!r} instead of its URL; stderr: {err.strip()}")
        self.url = line
        parsed = urllib.parse.urlparse(line)
        self.host = parsed.hostname
        self.port = parsed.port
        self.token = urllib.parse.parse_qs(parsed.query)["token"][0]
        self.pid = self.process.pid

    def request(self, method, target, headers=None, body=None, token=True, host=None):
        """One raw HTTP request (the target is sent exactly as given); returns (status, headers, bytes)."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        if token:
            sep = "&" if "?" in target else "?"
            target = f"{target}{sep}token={self.token}"
        all_headers = {"Host": host or f"{self.host}:{self.port}"}
        all_headers.update(headers or {})
        connection.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        for key, value in all_headers.items():
            connection.putheader(key, value)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            connection.putheader("Content-Type", "application/json")
            connection.putheader("Content-Length", str(len(data)))
        connection.endheaders(data)
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), payload

    def get(self, path, **params):
        query = urllib.parse.urlencode(params, doseq=True)
        return self.request("GET", f"{path}?{query}" if query else path)

    def get_json(self, path, **params):
        status, _, payload = self.get(path, **params)
        if status != 200:
            raise AssertionError(f"GET {path} {params}: {status} {payload[:300]!r}")
        return json.loads(payload)

    def post_json(self, path, body, **params):
        query = urllib.parse.urlencode(params)
        return self.request("POST", f"{path}?{query}" if query else path, body=body,
                            headers={"X-Flick-Token": self.token})

    def stop(self):
        """SIGTERM by PID; returns the exit status (0 or 130 expected)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise AssertionError("flick studio did not stop within 20 s of SIGTERM")
        self.process.stdout.close()
        self.process.stderr.close()
        return self.process.returncode


def launch_browser(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])


def blob_bytes(page):
    """The bytes of the PNG the page decoded last (the Blob behind data-blob-url, window.studio.state.lastBlob).

    The page's Content-Security-Policy (connect-src 'self') does not let a script fetch a blob: URL.
    """
    data = page.evaluate(
        """async () => {
          const blob = window.studio.state.lastBlob;
          return await new Promise((resolve) => {
            const reader = new FileReader();
            reader.onload = () => resolve(reader.result.split(',')[1]);
            reader.readAsDataURL(blob);
          });
        }""")
    return base64.b64decode(data)


def wait_js(page, expression, timeout=10000, arg=None):
    """Polls a JavaScript expression (or function of `arg`) until it is truthy; returns its value.

    page.wait_for_function cannot be used: it compiles its text with eval, which the page's
    Content-Security-Policy (script-src 'self') forbids — as it should.
    """
    deadline = time.monotonic() + timeout / 1000
    while True:
        value = page.evaluate(expression) if arg is None else page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{expression} still false after {timeout / 1000:g} s")
        time.sleep(0.02)


def wait_until(predicate, timeout, interval=0.02, message="condition"):
    """Polls `predicate` until it returns a truthy value; returns (value, seconds waited)."""
    start = time.monotonic()
    while True:
        value = predicate()
        if value:
            return value, time.monotonic() - start
        if time.monotonic() - start > timeout:
            raise AssertionError(f"{message}: not reached within {timeout} s")
        time.sleep(interval)
