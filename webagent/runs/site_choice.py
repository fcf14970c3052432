"""Which site a run drives (`RunConfig.site`), and where it opens: the one place runs/ turns the name into
the adapter (webagent/sites/: `site_named`), so no run names a site."""

from __future__ import annotations

from webagent.config import RunConfig
from webagent.errors import RunError, UsageError
from webagent.sites import EMBEDDED, SITES, UnknownSite, site_named
from webagent.tools.site import OrderSessions, Site

__all__ = ["check_embedded", "named_by_you", "replayed_on", "sessions_of", "site_of", "start_url"]


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
    return site_of(config).start_url(base_url, config.model_dump())


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


def sessions_of(site: Site, config: RunConfig, url: str, identity: str | None = None) -> OrderSessions:
    """The sessions of the site at ``url`` and their orders (`Site.order_sessions`), for many runs against
    one site; a `UsageError` when the site keeps no order history webagent can ask — an adapter of one's own
    written before there was one included."""
    ask = getattr(site, "order_sessions", None)
    sessions = ask(url, identity) if ask is not None else None
    if sessions is None:
        raise UsageError(
            f"--site {config.site} keeps no order history webagent can ask, so a batch could not tell whether an "
            "interrupted line ordered and might order it twice: a batch drives a site whose adapter has "
            f"order_sessions ({EMBEDDED}); run the lines one by one with webagent run"
        )
    return sessions  # type: ignore[no-any-return]


def named_by_you(recorded: RunConfig, named: str | None) -> None:
    """A recorded run (a checkpoint, a transcript) that names an adapter of its own (``package.module:NAME``)
    is resumed or replayed only when the person names that adapter too (``--site``): importing it runs its
    code, and a run folder is data — one copied from elsewhere must not choose what webagent imports. The
    adapters webagent ships need no naming; a ``named`` that is not the recorded one is refused too."""
    if named is not None and named != recorded.site:
        raise UsageError(f"this run drove --site {recorded.site}, not {named}: resume or replay it on its own site")
    if recorded.site not in SITES and named != recorded.site:
        raise UsageError(
            f"this run names the site adapter {recorded.site} (in its run folder): webagent imports an adapter "
            f"of your own only when you name it — add --site {recorded.site} if it is yours"
        )
