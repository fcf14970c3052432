"""What a page does besides answering an action: JavaScript dialogs, new tabs and windows, downloads,
file choosers, a document loaded after an action had finished — each noted for the next narration
(webagent/narration/happened.py), none silent, and none left to freeze the page.

Dialogs are answered at once, so the page never waits on one while the model thinks (and never hangs a
read of it): an ``alert`` with OK, its only button; a ``confirm``, ``prompt`` or ``beforeunload`` with
Cancel — stay, do nothing — unless `answer_dialog` armed another answer for that very dialog (the same
kind and words: `Answer`), which it does only once the gate approved it where the words pay or order.
`PageEvents.asked` keeps the last dialog answered Cancel with the tool call that raised it, so the toolbox
can offer `answer_dialog` and do that call again with the answer armed.

A new tab or window the page opens on the site's origin is followed (one held at the allowlist is closed): the session's page becomes it (`Holder.adopt`), and when
it closes the tools go back to the one before. Every tab closes with the run's browser context.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, cast
from urllib.parse import urlsplit

from playwright.async_api import BrowserContext, Dialog, Download, FileChooser, Page
from playwright.async_api import Error as PlaywrightError

from webagent.browser.quiet import Traffic
from webagent.narration import happened
from webagent.narration.happened import Asking

__all__ = ["Answer", "Asked", "Holder", "PageEvents", "answering"]

FOLLOW_TIMEOUT_MS = 10_000
"""How long a new tab gets to show its first document before it is followed anyway."""
SETTLE_S = 12.0
"""The longest a tool call waits, after acting, for the page events it caused to be handled."""


@dataclass(frozen=True)
class Asked:
    """A dialog webagent answered Cancel (or Stay), and the tool call that raised it."""

    kind: Asking
    message: str
    default: str = ""
    call: tuple[str, str] | None = None
    """(tool name, its arguments as JSON) of the call that was acting when it came; None: none was."""


@dataclass(frozen=True)
class Answer:
    """The answer `answer_dialog` armed for the next dialog of this kind and these words."""

    kind: Asking
    message: str
    accept: bool
    text: str | None = None


class Holder(Protocol):
    """The session whose page the tools act on."""

    page: Page
    shop_url: str

    @property
    def acting_now(self) -> bool:
        """Whether a tool call is acting on the page now."""
        ...

    async def adopt(self, page: Page) -> None:
        """Make ``page`` (a new tab) the one the tools act on."""
        ...

    def show(self, page: Page) -> None:
        """Make ``page`` (one adopted before) the one the tools act on again."""
        ...

    def lost(self) -> None:
        """The last tab closed, or the one in use crashed."""
        ...


class PageEvents:
    """The page events of one session, noted for its next narration (`take`)."""

    def __init__(self, holder: Holder, *, choose_files: bool = True) -> None:
        self.holder = holder
        self.notes: list[str] = []
        self.asked: Asked | None = None
        self.armed: Answer | None = None
        self.calling: tuple[str, str] | None = None
        """The tool call acting now, as (name, arguments JSON), set by the toolbox: what a dialog answers to."""
        self._choose_files = choose_files
        """Intercept file choosers (headless); a person at a headed window picks files in the native one."""
        self._tabs: list[Page] = []
        self._pending: set[asyncio.Task[None]] = set()
        self.followed = 0
        """Tabs followed (or left) so far: a call compares it before and after to know the page changed."""
        self.traffic = Traffic()
        """The requests each tab has in flight: how a page without an activity log is settled (quiet.py)."""

    def watch(self, page: Page) -> None:
        """Listen to ``page``'s dialogs, downloads, file choosers and loads."""
        self._tabs.append(page)
        self.traffic.watch(page)
        page.on("dialog", lambda dialog: self._spawn(self._dialog(dialog)))
        page.on("download", self._download)
        if self._choose_files:
            page.on("filechooser", self._file_chooser)
        page.on("domcontentloaded", lambda loaded: self._loaded(loaded))
        page.on("close", lambda closed: self._closed(closed))
        page.on("crash", lambda crashed: self.holder.lost() if crashed is self.holder.page else None)

    def watch_context(self, context: BrowserContext) -> None:
        """Follow the tabs and windows the page opens."""
        context.on("page", lambda page: self._spawn(self._new_page(page)))

    def take(self) -> list[str]:
        """The events noted since the last take, for the narration."""
        notes, self.notes = self.notes, []
        return notes

    async def settled(self) -> None:
        """Once the events seen so far are handled (a new tab followed), within `SETTLE_S`."""
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=SETTLE_S)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _dialog(self, dialog: Dialog) -> None:
        kind, message = dialog.type, dialog.message
        try:
            if kind not in ("confirm", "prompt", "beforeunload"):
                await dialog.accept()
                self.notes.append(happened.alert(message))
                return
            asking = cast(Asking, kind)
            armed = self.armed
            if armed is not None and (armed.kind, armed.message) == (asking, message):
                self.armed = None  # one answer for one dialog: the same question again gets Cancel
                text = armed.text if armed.text is not None else dialog.default_value
                if armed.accept:
                    await (dialog.accept(text) if asking == "prompt" else dialog.accept())
                else:
                    await dialog.dismiss()
                self.asked = None
                self.notes.append(happened.answered(asking, message, armed.accept, text))
                return
            await dialog.dismiss()
            self.asked = Asked(asking, message, dialog.default_value, self.calling)
            again = self.calling[0] if self.calling else None
            self.notes.append(happened.asked(asking, message, dialog.default_value, again))
        except PlaywrightError:
            return  # the page went away with its dialog

    async def _new_page(self, page: Page) -> None:
        self.watch(page)
        with contextlib.suppress(PlaywrightError):
            await page.wait_for_load_state("domcontentloaded", timeout=FOLLOW_TIMEOUT_MS)
        if page.is_closed():
            return
        if _origin(page.url) != _origin(self.holder.shop_url):  # held at the allowlist: an error page
            with contextlib.suppress(PlaywrightError):
                await page.close()  # its blocked navigation is narrated already
            return
        title = ""
        with contextlib.suppress(PlaywrightError):
            title = await page.title()
        await self.holder.adopt(page)
        self.followed += 1
        self.notes.append(happened.new_tab(title, page.url))

    def _closed(self, page: Page) -> None:
        if page in self._tabs:
            self._tabs.remove(page)
        if page is not self.holder.page:
            return  # a tab behind
        if not self._tabs:
            self.holder.lost()  # the last one: the run sees a closed page and stops
            return
        earlier = self._tabs[-1]
        self.holder.show(earlier)
        self.followed += 1
        self._spawn(self._back(earlier))

    async def _back(self, page: Page) -> None:
        title = ""
        with contextlib.suppress(PlaywrightError):
            title = await page.title()
        self.notes.append(happened.tab_closed(title, page.url))

    def _download(self, download: Download) -> None:
        self.notes.append(happened.download(download.suggested_filename))

    def _file_chooser(self, chooser: FileChooser) -> None:
        self.notes.append(happened.file_chooser(chooser.is_multiple()))

    def _loaded(self, page: Page) -> None:
        if page is self.holder.page and not self.holder.acting_now:
            self.notes.append(happened.loaded(page.url))


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@contextlib.contextmanager
def answering(events: PageEvents, answer: Answer) -> Iterator[None]:
    """While a call is done again for `answer_dialog`: its dialog gets ``answer``, and no other."""
    events.armed = answer
    try:
        yield
    finally:
        events.armed = None
