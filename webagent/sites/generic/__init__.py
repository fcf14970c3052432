"""A page nobody wrote an adapter for, read as a person would read it (issue 39, item 2).

- `site` — `ANY_PAGE`, the adapter for such a page (``--site any-page``): the generic tools, its reader;
- `reader` — what any page shows besides a site's own facts: its title, its main heading and the step of
  a wizard, the form on screen with its fields (required, filled, invalid). A site adapter's reader adds
  them for pages it does not know (the demo shop's, off its own views), so a press that moves a form on
  to its next step is narrated as such, never as "No visible change".
"""

from __future__ import annotations

from webagent.sites.generic.reader import PAGE_FACTS_JS

__all__ = ["PAGE_FACTS_JS"]
