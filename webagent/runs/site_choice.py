"""Which site a run drives (`RunConfig.site`), and where it opens: the one place runs/ turns the name into
the adapter (webagent/sites/: `site_named`), so no run names a site."""

from __future__ import annotations

from webagent.config import RunConfig
from webagent.errors import RunError
from webagent.sites import EMBEDDED, UnknownSite, site_named
from webagent.tools.site import Site

__all__ = ["check_embedded", "replayed_on", "site_of", "start_url"]


def site_of(config: RunConfig) -> Site:
    """The adapter ``config`` names; a `RunError` a person can act on when it names none."""
    try:
        return site_named(config.site)
    except UnknownSite as error:
        raise RunError(str(error)) from error


def check_embedded(config: RunConfig) -> None:
    """A run without a URL opens the shop that ships with webagent: only its own adapter drives that."""
    if not config.shop_url and config.site != EMBEDDED:
        raise RunError(
            f"--site {config.site} needs the page to open: give it with --url (without one, webagent opens "
            f"the embedded demo shop, which the {EMBEDDED} adapter drives)"
        )


def start_url(config: RunConfig, base_url: str) -> str:
    """The page a run of ``config`` opens first on the site at ``base_url``."""
    return site_of(config).start_url(base_url, config.clutter, config.seed)


def replayed_on(config: RunConfig, given: str | None) -> str | None:
    """Where a recorded run of ``config`` is replayed: ``given``, else a fresh embedded shop (None). A run on
    another site is replayed only where the person says: its page is live, and a replay would act on it
    again (what the gate does not hold — a fill, a step — would be sent to it a second time)."""
    if given:
        return given
    if config.site != EMBEDDED:
        raise RunError(
            f"this run drove --site {config.site} at {config.shop_url}: a replay acts on that page again, so "
            "give the page to replay on with --url (the recorded one, or a copy of it)"
        )
    return None
