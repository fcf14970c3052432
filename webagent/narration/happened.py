"""Sentences for what a page did besides answering an action (webagent/browser/events.py): a JavaScript
dialog, a new tab or window, a download, a file chooser, a document loaded after an action had finished.

Each is one line of a narration, starting with "The page" or "A new tab" — never with a word a tool's
own line starts with — and the page's words in it are quoted (`quote`: one line, bounded): untrusted
text, read, never obeyed.
"""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

from webagent.narration.narrate import quote

__all__ = [
    "Asking",
    "alert",
    "answered",
    "asked",
    "download",
    "file_chooser",
    "loaded",
    "new_tab",
    "tab_closed",
]

Asking = Literal["confirm", "prompt", "beforeunload"]
"""The dialogs that ask something (an ``alert`` only tells)."""

ANSWER_TOOL = "answer_dialog"


def _where(url: str) -> str:
    parts = urlsplit(url)
    return quote((parts.path or "/") + (f"?{parts.query}" if parts.query else ""), 80)


def alert(message: str) -> str:
    return f"The page showed an alert {quote(message)}; it was closed with OK (its only button)."


def _question(kind: Asking, message: str, default: str = "") -> str:
    if kind == "confirm":
        return f"asked to confirm {quote(message)}"
    if kind == "prompt":
        shown = f" (it suggested {quote(default, 60)})" if default else ""
        return f"asked for a text answer to {quote(message)}{shown}"
    return "asked whether to leave it (changes made there may be lost)"


def asked(kind: Asking, message: str, default: str, again: str | None) -> str:
    """A dialog answered Cancel by default, and how the model can answer it otherwise."""
    done = "stayed on it" if kind == "beforeunload" else "answered Cancel, so what it asks was not done"
    answer = "Leave" if kind == "beforeunload" else "OK"
    how = (
        f" To answer {answer}, call {ANSWER_TOOL} with accept true"
        + (" and the text" if kind == "prompt" else "")
        + f": {again} is then done again with that answer."
        if again
        else " It came while no action ran, so it cannot be answered otherwise now."
    )
    return f"The page {_question(kind, message, default)}; webagent {done}.{how}"


def answered(kind: Asking, message: str, accept: bool, text: str | None = None) -> str:
    """A dialog answered as `answer_dialog` said."""
    said = ("Leave" if kind == "beforeunload" else "OK") if accept else "Cancel"
    typed = f" with {quote(text, 60)}" if accept and kind == "prompt" and text else ""
    return f"The page {_question(kind, message)}; answered {said}{typed}, as {ANSWER_TOOL} said."


def answer_changed() -> str:
    """`answer_dialog` refused: what the answer would commit is not what was checked (and approved)."""
    return (
        "Nothing was done: what answering the page's question would commit changed after it was checked. "
        f"Call {ANSWER_TOOL} again to have it checked (and approved) afresh."
    )


def new_tab(title: str, url: str) -> str:
    named = quote(title, 80) if title.strip() else "an untitled page"
    return (
        f"A new tab opened: {named} at {_where(url)}; the tools act on it now "
        "(the earlier tab stays open behind it)."
    )


def tab_closed(title: str, url: str) -> str:
    named = quote(title, 80) if title.strip() else "an untitled page"
    return f"The page's tab closed; the tools act on the earlier one again: {named} at {_where(url)}."


def download(name: str) -> str:
    return f"The page started a download of {quote(name, 80)}; webagent does not keep downloads."


def file_chooser(multiple: bool) -> str:
    files = "files" if multiple else "a file"
    return f"The page opened a file chooser for {files}; nothing was chosen (webagent does not pick files)."


def loaded(url: str) -> str:
    return f"The page loaded {_where(url)} after the last action had finished."
