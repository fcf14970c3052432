"""Getting past a popup leaves nothing of ours in the page, and the page's scripts cannot hide the popup
(issue 39, item 5), on pages written here.

The pages watch for us as a suspicious site would: a MutationObserver that records and strips every
attribute it did not set (a framework re-rendering its overlay does the same), the globals that appear on
its window, and — on the second page — main-world functions patched to say nothing covers the button. The
page's server records what it saw and what was clicked; the tests assert that record.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.test_blind_gate import Ledger, fresh, ledger, page, press, run
from webagent.browser.session import Browser

__all__ = ["fresh", "ledger"]  # the ledger fixtures, used here

# A cover over the page whose way out is "Not now". The page's own observer strips every attribute it did
# not write (on the cover and anywhere else) and records its name; "Save" reports the attributes seen and
# the globals that appeared on the window since the page loaded.
WATCHFUL = """<main><h1>Notes</h1><p>Your notes are kept here.</p>
<button id='save' onclick="report()">Save</button></main>
<div id='cover' style='position:fixed;inset:0;z-index:50;background:rgba(0,0,0,.5)'>
  <div style='background:#fff;margin:120px auto;width:320px;padding:16px'>
    <h2>Try our app</h2><p>Notes are better in the app.</p>
    <button id='no' onclick="document.getElementById('cover').remove()">Not now</button>
  </div>
</div>"""

WATCH = """
const before = new Set(Object.getOwnPropertyNames(window));
const foreign = [];
const own = new Set(['id', 'style', 'onclick']);
new MutationObserver((changes) => {
  for (const c of changes) {
    if (c.type !== 'attributes' || own.has(c.attributeName)) continue;
    foreign.push(c.attributeName);
    if (c.target.hasAttribute(c.attributeName)) c.target.removeAttribute(c.attributeName);
  }
}).observe(document, { attributes: true, subtree: true });
function report() {
  const globals = Object.getOwnPropertyNames(window).filter((k) => !before.has(k) && k !== 'report');
  rec(JSON.stringify({ clicked: 'Save', foreign, globals }));
}
"""

# The same page, whose scripts also lie to anything evaluated in its world: nothing is at any point,
# and no element is fixed.
LYING = """
Document.prototype.elementFromPoint = function () { return null; };
ShadowRoot.prototype.elementFromPoint = function () { return null; };
const real = window.getComputedStyle;
window.getComputedStyle = function (el, pseudo) {
  const style = real.call(window, el, pseudo);
  return new Proxy(style, { get: (s, k) => (k === 'position' ? 'static' : Reflect.get(s, k)) });
};
"""


def saved(ledger: Ledger) -> dict[str, list[str]]:
    ledger.settle(lambda: bool(ledger.hits))
    assert len(ledger.hits) == 1, ledger.hits
    record: dict[str, list[str]] = json.loads(ledger.hits[0])
    return record


@pytest.mark.parametrize("lies", [False, True], ids=["watching", "lying"])
def test_a_popup_is_got_past_without_a_trace_in_the_page(
    agent_browser: Browser, fresh: Ledger, tmp_path: Path, lies: bool
) -> None:
    script = WATCH + (LYING if lies else "")
    url, _ = fresh.add(page(WATCHFUL, title="Notes", view=False, script=script))
    _result, _events, said = run(agent_browser, url, tmp_path, [press("Save")], goal="Save my notes")
    assert 'with "Not now"' in said[0], said[0]
    record = saved(fresh)
    assert record["clicked"] == "Save"
    assert not [name for name in record["foreign"] if "webagent" in name], record
    assert not [name for name in record["globals"] if "webagent" in name.lower()], record
