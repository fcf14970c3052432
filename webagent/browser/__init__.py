"""The page: Chromium, contexts, and getting past what covers the page — knowing no site.

    chromium.py     finding a Chromium (ours, Playwright's, Debian's) and installing one
    session.py      `Browser` (launch, connect, over CDP) and `PageSession` (one run's context and page)
    crumbs.py       the bridge that brings a site's breadcrumbs to Python, and the record of one
    obstruction.py  popups nobody catalogued: found by what they look like, declined by name
    layers.py       what covers an element, found and remembered in Playwright's utility world
    watch.py        the headed panel and the outline of the element acted on
    busy.py         a busy answer: what is transient, and the backoff before trying again

May import: narration, errors, Playwright. Never tools, agent, runs or a site adapter: a site's
overlays and page rules come in through the `SessionSite` Protocol.
"""
