"""One headless Chromium for the sheet tests, driven over the DevTools protocol on a pipe.

Why one browser: the sheet tests need about twenty renderings (a PNG and a PDF of every sheet, the
layout metrics on two papers, the README screenshots). One ``chromium --headless --screenshot`` (or
``--print-to-pdf``, ``--dump-dom``) process per rendering meant twenty browser starts, each a shell
wrapper and about ten processes, some 35–40 s of CPU on a machine where the suite is CPU-bound. One
browser, started once, renders the same pages in tabs for a fraction of that.

The protocol: with ``--remote-debugging-pipe`` Chromium reads commands from its fd 3 and writes
replies and events to its fd 4, each message a JSON object followed by a NUL byte. `Browser.send`
writes ``{"id", "method", "params", "sessionId"}`` and reads until the reply with that id (buffering
the events that come first), raising `BrowserError` on an ``error`` reply; `Browser.wait_for` waits for
an event by name. Every wait is bounded (`Browser.timeout`, generous: a loaded machine is slow, not
stuck) and fails with the method or event it waited for and the end of Chromium's log, never hangs.

    with Browser("/usr/bin/chromium", tmp / "profile", tmp / "chromium.log") as browser:
        with browser.open(Path("sheet.html").absolute().as_uri(), (1123, 794)) as page:
            png = page.screenshot()

The child gets the pipe ends at exactly fds 3 and 4 through `os.posix_spawn`'s dup2 actions:
``subprocess.Popen(pass_fds=...)`` keeps a descriptor's number, so it would need a ``preexec_fn``
(not safe with threads, and pytest-xdist workers have them) or a shell in between to renumber them.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import math
import os
import select
import signal
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from tests.budget import tab_opened

#: The flags of every launch: headless, no sandbox (containers), nothing that reaches the network.
#: No omnibox popups: a headless window still made two (chrome://omnibox-popup.top-chrome/, its
#: "AI mode" page beside it) in a renderer of their own that, with the browser process, spent about
#: 1.25 s of CPU in every 15 s of idling (0.26 s without them, Chromium 156): 5-8 s of CPU over a
#: test process's browser, taken from the other tests. No page draws an omnibox; a Chromium that
#: does not know a feature's name ignores it.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
)

#: What ``--print-to-pdf --no-pdf-header-footer`` asks of the page (headless_command_handler.cc):
#: backgrounds, the size and margins of the CSS ``@page`` rule, no header and footer of Chromium's own.
PDF_OPTIONS: Mapping[str, Any] = {
    "printBackground": True,
    "preferCSSPageSize": True,
    "displayHeaderFooter": False,
}

#: Resolves once the page has loaded and its fonts are ready (the renderings wait for both).
_SETTLED = """new Promise(function (resolve) {
  if (document.readyState === "complete") { resolve(); } else { window.addEventListener("load", resolve); }
}).then(function () { return document.fonts.ready; }).then(function () { return document.readyState; })"""

Message = dict[str, Any]


class BrowserError(Exception):
    """Chromium refused a command, died, or did not answer in time; the message says which."""


class Browser:
    """A headless Chromium started with a fresh profile, spoken to over ``--remote-debugging-pipe``."""

    def __init__(self, binary: str, profile: Path, log: Path, *, timeout: float = 90.0) -> None:
        self.timeout = timeout
        self.log = log
        self._ids = 0
        self._buffer = bytearray()
        self._events: list[Message] = []
        self._replies: dict[int, Message] = {}
        profile.mkdir(parents=True, exist_ok=True)
        # Above 10 so that the dup2s to 3 and 4 cannot overwrite one another; close-on-exec, so no
        # other child (of this or another thread) inherits them.
        to_child, self._to_browser = _pipe()
        self._from_browser, from_child = _pipe()
        log_fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
        try:
            self.pid = os.posix_spawn(
                binary,
                [binary, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
                dict(os.environ),
                file_actions=[
                    (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                    (os.POSIX_SPAWN_DUP2, log_fd, 1),
                    (os.POSIX_SPAWN_DUP2, log_fd, 2),
                    (os.POSIX_SPAWN_DUP2, to_child, 3),
                    (os.POSIX_SPAWN_DUP2, from_child, 4),
                ],
                setsid=True,  # its own process group: a hung browser is killed with all its children
            )
        except BaseException:
            for fd in (self._to_browser, self._from_browser):
                os.close(fd)
            raise
        finally:
            for fd in (to_child, from_child, log_fd):
                os.close(fd)

    # --- Messages ------------------------------------------------------------------------------

    def send(self, method: str, params: Mapping[str, Any] | None = None, session: str | None = None) -> Message:
        """Run one command (in a page's session, if given) and return its result."""
        self._ids += 1
        number = self._ids
        message: Message = {"id": number, "method": method, "params": dict(params or {})}
        if session is not None:
            message["sessionId"] = session
        self._write(json.dumps(message).encode() + b"\0", method)
        deadline = time.monotonic() + self.timeout
        while number not in self._replies:
            self._read(deadline, f"the reply to {method}")
        reply = self._replies.pop(number)
        if "error" in reply:
            raise BrowserError(f"chromium refused {method}: {reply['error']}")
        result: Message = reply.get("result", {})
        return result

    def wait_for(
        self, event: str, session: str | None = None, where: Callable[[Message], bool] = lambda _: True
    ) -> Message:
        """The parameters of the first event of that name (in that session) that ``where`` accepts."""
        deadline = time.monotonic() + self.timeout
        seen = 0
        while True:
            for index in range(seen, len(self._events)):
                found = self._events[index]
                if found["method"] == event and found.get("sessionId") == session and where(found["params"]):
                    del self._events[index]
                    params: Message = found["params"]
                    return params
            seen = len(self._events)
            self._read(deadline, f"a {event} event")

    def forget(self, session: str) -> None:
        """Drop the events of a session nobody will wait on any more (a closed tab's)."""
        self._events = [event for event in self._events if event.get("sessionId") != session]

    def _write(self, data: bytes, method: str) -> None:
        deadline = time.monotonic() + self.timeout
        view = memoryview(data)
        while view:
            if not _ready(self._to_browser, select.POLLOUT, deadline - time.monotonic()):
                raise BrowserError(self._explain(f"chromium did not read {method} within {self.timeout:g} s"))
            try:
                view = view[os.write(self._to_browser, view) :]
            except BrokenPipeError:
                raise self._gone(f"chromium closed its pipe before it read {method}") from None

    def _read(self, deadline: float, awaited: str) -> None:
        """Read what Chromium has written (waiting until the deadline) and file each whole message."""
        if not _ready(self._from_browser, select.POLLIN, deadline - time.monotonic()):
            raise BrowserError(self._explain(f"chromium did not send {awaited} within {self.timeout:g} s"))
        chunk = os.read(self._from_browser, 1 << 20)
        if not chunk:
            raise self._gone(f"chromium closed its pipe before it sent {awaited}")
        self._buffer += chunk
        *messages, rest = self._buffer.split(b"\0")
        self._buffer = bytearray(rest)
        for raw in messages:
            message: Message = json.loads(raw)
            if "id" in message:
                self._replies[message["id"]] = message
            else:
                self._events.append(message)

    def _gone(self, what: str) -> BrowserError:
        """The error for a pipe Chromium closed: it closes as the process ends, so wait (a little) for
        the exit status to tell."""
        ending = time.monotonic() + 5
        while self._exited() is None and time.monotonic() < ending:
            time.sleep(0.01)
        return BrowserError(self._explain(what))

    def _explain(self, what: str) -> str:
        ended = self._exited()
        exited = "" if ended is None else f" (chromium {ended})"
        try:
            tail = self.log.read_text(errors="replace")[-2000:]
        except OSError:
            tail = ""
        return f"{what}{exited}; the end of its log ({self.log}):\n{tail}"

    # --- Pages ---------------------------------------------------------------------------------

    def open(self, url: str, size: tuple[int, int] | None = None, scale: float = 1.0) -> Page:
        """A new tab showing ``url`` (loaded, fonts ready) in a viewport of ``size`` and ``scale`` (see
        `Page.emulate`). A new tab is a new renderer: what it draws does not depend on what others drew
        before (Chromium's font cache, for one, keeps the first of two nearly equal font sizes)."""
        tab_opened()  # counted against the fast suite's budget (tests/budget.py)
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, target, session)
        try:
            self.send("Page.enable", session=session)
            self.send("Page.setLifecycleEventsEnabled", {"enabled": True}, session)
            if size is not None:
                page.emulate(size, scale)
            page.goto(url)
        except BaseException:
            page.close()
            raise
        return page

    # --- Lifetime ------------------------------------------------------------------------------

    def _exited(self) -> str | None:
        """How Chromium ended, if it has; it stays a zombie (its pid and group id not reusable) until
        `close` reaps it."""
        ended = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        if ended is None or ended.si_pid == 0:
            return None
        how = "exited with status" if ended.si_code == os.CLD_EXITED else "was killed by signal"
        return f"{how} {ended.si_status}"

    def close(self) -> None:
        """Ask Chromium to quit (Browser.close), give it a generous while, then kill what is left."""
        if self._exited() is None:
            with contextlib.suppress(BrowserError):  # already going: the wait below finds out
                self._write(json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0", "Browser.close")
            deadline = time.monotonic() + self.timeout
            while self._exited() is None and time.monotonic() < deadline:
                # Drain what it still says, so that it never blocks on a full pipe while quitting.
                if _ready(self._from_browser, select.POLLIN, 0.05) and not os.read(self._from_browser, 1 << 20):
                    time.sleep(0.05)
        with contextlib.suppress(ProcessLookupError):  # whatever it left running (all of it, if it hung)
            os.killpg(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        for fd in (self._to_browser, self._from_browser):
            os.close(fd)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


class Page:
    """One tab of a `Browser`, attached in its own (flat) session."""

    def __init__(self, browser: Browser, target: str, session: str) -> None:
        self.browser, self.target, self.session = browser, target, session

    def emulate(self, size: tuple[int, int] | None, scale: float = 1.0) -> None:
        """Set the viewport, what a screenshot shows: ``size`` in CSS pixels, ``scale`` device pixels per
        CSS pixel; None gives the tab back the browser's own (as a ``--print-to-pdf`` run has it)."""
        if size is None:
            self.browser.send("Emulation.clearDeviceMetricsOverride", session=self.session)
            return
        width, height = size
        metrics = {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False}
        self.browser.send("Emulation.setDeviceMetricsOverride", metrics, self.session)

    def goto(self, url: str) -> None:
        """Show ``url`` and wait until it has loaded and its fonts are ready."""
        navigated = self.browser.send("Page.navigate", {"url": url}, self.session)
        if navigated.get("errorText"):
            raise BrowserError(f"chromium could not open {url}: {navigated['errorText']}")
        loader = navigated["loaderId"]
        # The load of this navigation, not a late one of the page before (or of the blank first page).
        self.browser.wait_for(
            "Page.lifecycleEvent", self.session, lambda event: event["name"] == "load" and event["loaderId"] == loader
        )
        state = self.evaluate(_SETTLED)
        if state != "complete":
            raise BrowserError(f"{url} did not finish loading (document.readyState is {state!r})")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression (awaited if it is a promise), as JSON."""
        params = {"expression": expression, "awaitPromise": True, "returnByValue": True}
        result = self.browser.send("Runtime.evaluate", params, self.session)
        if "exceptionDetails" in result:
            raise BrowserError(f"the page threw: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self) -> bytes:
        """The viewport as a PNG, at the device scale the page was opened with."""
        return base64.b64decode(self.browser.send("Page.captureScreenshot", {"format": "png"}, self.session)["data"])

    def pdf(self) -> bytes:
        """The page printed as ``--print-to-pdf --no-pdf-header-footer`` prints it."""
        return base64.b64decode(self.browser.send("Page.printToPDF", PDF_OPTIONS, self.session)["data"])

    def close(self) -> None:
        self.browser.send("Target.closeTarget", {"targetId": self.target})
        self.browser.forget(self.session)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


def _ready(fd: int, event: int, seconds: float) -> bool:
    """Whether ``fd`` can be read (POLLIN) or written (POLLOUT) within ``seconds``; a closed other end
    counts as ready (the read or write then tells). poll, not select: any descriptor number works."""
    poller = select.poll()
    poller.register(fd, event)
    return bool(poller.poll(max(0, math.ceil(seconds * 1000))))


def _pipe() -> tuple[int, int]:
    """A pipe (read end, write end) whose descriptors are 10 or above, close-on-exec."""
    ends = os.pipe()
    try:
        return fcntl.fcntl(ends[0], fcntl.F_DUPFD_CLOEXEC, 10), fcntl.fcntl(ends[1], fcntl.F_DUPFD_CLOEXEC, 10)
    finally:
        for fd in ends:
            os.close(fd)
