"""Generic actions, for whatever the typed vocabulary does not cover: a popup nobody catalogued, a
page the shop grew last week.

Each names things as a person sees them — a button by its accessible name, a field by its label — and
is narrated by what changed on the page (the toolbox appends `narrate.changes(before, after)`), never
by a dump of the DOM. A press (or Enter in a form) that would pay, buy, order or book — on any page, by
its words or its form (webagent/tools/consequence.py) — goes through the same approval gate and budget as
`place_order`: the loop asks the toolbox first, which judges it with `judge_press`/`judge_press_key`
and hands the judged control to the tool, so each press resolves its control once.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import JSHandle, Locator, Page
from pydantic import Field

from webagent.browser.cards import card_kind
from webagent.browser.labels import LABEL_OF_JS
from webagent.narration import said
from webagent.narration.names import resolve
from webagent.narration.narrate import quote
from webagent.narration.said import Outcome
from webagent.tools.base import Args, Tool
from webagent.tools.consequence import (
    CONTROL_FACTS_JS,
    NOT_CONSEQUENTIAL,
    Consequence,
    ControlFacts,
    judge_choice,
    judge_control,
    judge_key,
    read_facts,
    unclear,
)
from webagent.tools.context import Judged
from webagent.tools.dialogs import ANSWER_DIALOG

if TYPE_CHECKING:
    from webagent.tools.context import ToolContext

__all__ = [
    "GENERIC_TOOLS",
    "ChooseOption",
    "FillField",
    "Press",
    "PressKey",
    "ScrollTo",
    "controls_named",
    "find_control",
    "judge_choose",
    "judge_fill",
    "judge_press",
    "judge_press_key",
]

KEYS = (
    "Enter", "Escape", "Tab", "Shift+Tab", "Space", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
    "PageUp", "PageDown", "Home", "End", "Backspace",
)  # fmt: skip
Key = Literal[
    "Enter", "Escape", "Tab", "Shift+Tab", "Space", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
    "PageUp", "PageDown", "Home", "End", "Backspace",
]  # fmt: skip


class Press(Args):
    """Press a button or link by its name as shown (for anything the other tools do not cover, such as
    a popup's "Not now"). Says what changed on the page."""

    name: str = Field(max_length=100, description="The button's or link's name, e.g. 'Not now' or 'Close'.")


class FillField(Args):
    """Type into a text field found by its label (or placeholder). Says what changed on the page."""

    label: str = Field(max_length=100, description="The field's label as shown, e.g. 'Email address'.")
    text: str = Field(max_length=500, description="What to type; replaces what the field holds.")


class ChooseOption(Args):
    """Choose an option in a drop-down, radio group or checkbox found by its label."""

    label: str = Field(max_length=100, description="The drop-down's or group's label, e.g. 'Delivery time'.")
    choice: str = Field(max_length=100, description="The option as shown, e.g. '19:00-19:30'.")


class PressKey(Args):
    """Press one key on the keyboard, e.g. Escape to close a popup or Enter to submit."""

    key: Key = Field(description="The key: " + ", ".join(KEYS) + ".")


class ScrollTo(Args):
    """Scroll the page until a text is in view, and say where it is."""

    text: str = Field(max_length=100, description="Text on the page to bring into view.")


# Every visible button and link with its accessible name, the way a screen reader lists them.
CONTROLS_JS = """
() => {
  const shown = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== "hidden";
  const name = (n) => (n.getAttribute("aria-label") || (n.labels && n.labels[0] && n.labels[0].textContent)
    || n.textContent || n.getAttribute("title") || n.value || "").replace(/\\s+/g, " ").trim();
  return Array.from(document.querySelectorAll('button, a[href], [role="button"], [role="link"], input[type="submit"], input[type="button"]'))
    .filter((n) => shown(n) && !n.closest("[inert]")).map((n) => name(n)).filter((s) => s).slice(0, 200);
}
"""


async def controls_named(ctx: ToolContext) -> list[str]:
    """The names of the buttons and links a person can see now."""
    return [str(name) for name in await ctx.page.evaluate(CONTROLS_JS)]


async def find_control(ctx: ToolContext, name: str) -> Locator | Outcome:
    """The visible button or link called ``name`` (exactly, else the one close match), or a narration."""
    page = ctx.page
    for role in ("button", "link"):
        exact = page.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]
        visible = await _shown(exact)
        if not visible:
            visible = await _in_frames(page, role, name)
        if len(visible) == 1:
            return visible[0]
        if len(visible) > 1:
            return said.declined(f"Several controls are called {quote(name, 60)}; nothing was pressed.")
    names = list(dict.fromkeys(await controls_named(ctx)))
    match = resolve(name, names)
    if match.found is None:
        return said.not_found("button or link", name, match, "on the page")
    for role in ("button", "link"):
        found = page.get_by_role(role, name=match.found, exact=True)  # type: ignore[arg-type]
        visible = await _shown(found)
        if visible:
            return visible[0]
    return said.not_found("button or link", name, match, "on the page")


async def _shown(candidates: Locator) -> list[Locator]:
    """Those of ``candidates`` a person can see, found in one round trip (`filter(visible=True)`): each the
    n-th of the visible ones, resolved again when it is acted on."""
    visible = candidates.filter(visible=True)
    return [visible.nth(index) for index in range(await visible.count())]


MAX_FRAMES = 5
"""Shown iframes looked into for a control the page itself does not have (a consent wall's frame)."""


async def _in_frames(page: Page, role: str, name: str) -> list[Locator]:
    """The shown controls called exactly ``name`` inside the page's shown iframes, same-origin or not."""
    frames = page.locator("iframe").filter(visible=True)
    found: list[Locator] = []
    for index in range(min(await frames.count(), MAX_FRAMES)):
        inner = frames.nth(index).content_frame.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]
        found += await _shown(inner)
    return found


async def facts_of(ctx: ToolContext, control: Locator) -> ControlFacts:
    """The facts about ``control``: read in an isolated world where the browser allows (page scripts
    cannot patch what is read there), else in the page's own."""
    raw = await ctx.session.read_isolated(control, CONTROL_FACTS_JS, ctx.site.order_control)
    if raw is None:
        return await read_facts(control, CONTROL_FACTS_JS, ctx.site.order_control)
    return ControlFacts.from_raw(raw)


async def judge_press(ctx: ToolContext, args: Press) -> Judged:
    """Whether pressing ``args.name`` is consequential, with the control it resolves to (one lookup)
    and a handle on the element it was then (`Judged.focus`).

    A name that matches no control (or several) presses nothing — `press` narrates why, from this same
    lookup — so it commits nothing either.
    """
    control = await find_control(ctx, args.name)
    if isinstance(control, Outcome):
        return Judged(NOT_CONSEQUENTIAL, control)
    facts = await facts_of(ctx, control)
    if not facts.found:
        return Judged(
            unclear(f"pressing {quote(args.name, 60)}", "the control went away while it was checked")
        )
    return Judged(judge_control(facts, args.name), control, await _handle(control))


async def _point_at(ctx: ToolContext, control: Locator) -> None:
    """The pointer onto ``control`` without pressing it, past whatever covers it (the way the click will
    take), so a control that changes as the pointer reaches it shows it before it is judged again. Where
    the pointer cannot get there the click fails the same way, and says why."""
    with contextlib.suppress(PlaywrightError):
        await ctx.hover(control)


async def _now_reads(judged: Judged) -> str:
    """What the element judged reads now, for the narration: ``(it reads "Pay $80.00" now)``, or ""."""
    if judged.focus is None:
        return ""
    try:
        name = await judged.focus.evaluate("e => (e.getAttribute('aria-label') || e.innerText || '').trim()")
    except PlaywrightError:
        return ""
    return f" (it reads {quote(str(name), 60)} now)" if name else ""


async def _handle(control: Locator) -> JSHandle | None:
    try:
        return await control.element_handle(timeout=2_000)
    except PlaywrightError:
        return None


def _same(judged: Consequence, now: Consequence) -> bool:
    return (judged.consequential, judged.control, judged.total_cents) == (
        now.consequential,
        now.control,
        now.total_cents,
    )


async def _changed_since(judged: Judged, now: Judged) -> bool:
    """Whether the element a consequential action was judged (and approved) on is gone, replaced, or
    says something else now: then the action must not go ahead on the strength of that approval."""
    try:
        if judged.focus is None or now.focus is None or not _same(judged.consequence, now.consequence):
            return True
        return not await judged.focus.evaluate("(a, b) => a === b", now.focus)
    except PlaywrightError:
        return True
    finally:
        await now.release()


def _approved(ctx: ToolContext) -> bool:
    """Whether this action was judged consequential before it ran — and so passed the gate, maybe after
    a wait of minutes: it goes ahead only on what was judged (`_changed_since`)."""
    return ctx.judged is not None and ctx.judged.consequence.consequential


def _changed(what: str, tool: str) -> Outcome:
    return said.declined(
        f"Did not {what}: it changed on the page after it was checked. "
        f"Call {tool} again to have it checked (and approved) afresh."
    )


async def judge_press_key(ctx: ToolContext, args: PressKey) -> Judged:
    """Whether pressing ``args.key`` where the focus is would activate or submit something consequential,
    with the element judged: the key is pressed only while the focus is still there (`press_key`)."""
    if args.key not in ("Enter", "Space"):
        return Judged(NOT_CONSEQUENTIAL)
    focus = await ctx.page.evaluate_handle("document.activeElement")
    raw = await ctx.session.read_focused(CONTROL_FACTS_JS, ctx.site.order_control)
    if raw is None:
        facts = await read_facts(focus, CONTROL_FACTS_JS, ctx.site.order_control)
    else:
        facts = ControlFacts.from_raw(raw)
    return Judged(judge_key(args.key, facts), focus=focus)


async def press(ctx: ToolContext, args: Press) -> Outcome:
    judged = ctx.judged or await judge_press(ctx, args)
    if isinstance(judged.control, Locator):
        await _point_at(ctx, judged.control)  # a control that changes as the pointer reaches it shows it now
    now = await judge_press(ctx, args)  # judged again, with the pointer on it
    if _approved(ctx):
        if await _changed_since(judged, now):
            return _changed(f"press {quote(args.name, 60)}", "press")
    else:  # judged harmless: still harmless (and still there by its name), or not pressed
        await now.release()
        turned = not isinstance(now.control, Locator) or now.consequence.consequential
        if turned and isinstance(judged.control, Locator):
            return _changed(f"press {quote(args.name, 60)}{await _now_reads(judged)}", "press")
    control = judged.control if judged.control is not None else await find_control(ctx, args.name)
    if isinstance(control, Outcome):
        return control
    shown = (await control.get_attribute("aria-label")) or (await control.inner_text()).strip() or args.name
    if judged.consequence.site_marked:
        # The loop has already passed this through the approval gate; the site says what follows.
        kind = await ctx.attempt(lambda: ctx.click(control), ("order",), timeout_ms=20_000)
        state = await ctx.wait_for_view("confirmation") if kind == "order" else await ctx.read()
    else:
        mark = await ctx.mark()
        await ctx.click(control)
        await ctx.settle_after(mark)
        state = await ctx.read()
    placed = state.order_number if state.view == "confirmation" else None
    return Outcome(
        f"Pressed {quote(shown, 60)}.",
        order_id=placed,
        total_cents=state.order_total_cents if placed else None,
    )


async def _field(ctx: ToolContext, label: str) -> Locator | Outcome:
    page = ctx.page
    for candidate in (
        page.get_by_label(label, exact=True),
        page.get_by_placeholder(label, exact=True),
        page.get_by_role("textbox", name=label),
        page.get_by_label(label),
    ):
        visible = await _shown(candidate)
        if len(visible) == 1:
            return visible[0]
    offered = await _options_of(page, label)
    if offered:  # a drop-down or a group of choices by that label: typing is not how it is set
        listed = ", ".join(quote(option, 40) for option in offered[:8])
        return said.declined(
            f"{quote(label, 60)} is a choice, not a text field; nothing was typed. Call choose_option with "
            f"label {quote(label, 60)} and one of: {listed}."
        )
    return said.declined(f"No single field labelled {quote(label, 60)} is on the page; nothing was typed.")


async def _options_of(page: Page, label: str) -> list[str]:
    """The options of the drop-down, or the choices of the group of radios or boxes, labelled ``label``."""
    select = await _select_labelled(page, label)
    if select is not None:
        return [t.strip() for t in await select.locator("option").all_text_contents() if t.strip()]
    for group_role, item_role in (("radiogroup", "radio"), ("group", "radio"), ("group", "checkbox")):
        group = page.get_by_role(group_role, name=label)  # type: ignore[arg-type]
        if await group.count() == 1:
            names = await _item_names(group.get_by_role(item_role))  # type: ignore[arg-type]
            if names:
                return names
    return []


async def _item_names(items: Locator) -> list[str]:
    """Radios or boxes by the text of their label (else their value)."""
    return [
        str(name)
        for name in await items.evaluate_all(
            "(rs) => rs.map((r) => (r.labels && r.labels[0] ? r.labels[0].textContent : r.value).trim())"
        )
    ]


async def judge_fill(ctx: ToolContext, args: FillField) -> Judged:
    """Whether typing into the field labelled ``args.label`` is consequential (its change submits a
    payment form, say), with a handle on the field judged."""
    field = await _field(ctx, args.label)
    if isinstance(field, Outcome):
        return Judged(NOT_CONSEQUENTIAL, field)
    action = f"typing into {quote(args.label, 60)}"
    facts = await facts_of(ctx, field)
    if not facts.found:
        return Judged(unclear(action, "the field went away while it was checked"))
    return Judged(judge_choice(facts, "", action), field, await _handle(field))


async def fill_field(ctx: ToolContext, args: FillField) -> Outcome:
    if (
        ctx.judged is not None
        and _approved(ctx)
        and await _changed_since(ctx.judged, await judge_fill(ctx, args))
    ):
        return _changed(f"type into {quote(args.label, 60)}", "fill_field")
    field = await _field(ctx, args.label)
    if isinstance(field, Outcome):
        return field
    if kind := await card_kind(field, args.label):  # the model never types card details: the person does
        return said.declined(
            f"Not typed: {quote(args.label, 60)} asks for a {kind}, which only the person enters, never the "
            "model. Leave it empty; when the payment is approved the person is asked for the card on a page "
            "of their own (webagent mcp), or pays on the page themselves."
        )
    await ctx.fill(field, args.text)
    shown = await field.input_value()
    if shown != args.text:
        return said.failed(f"Typed into {quote(args.label, 60)}, but it shows {quote(shown, 80)}.")
    return Outcome(f"Filled {quote(args.label, 60)} with {quote(args.text, 80)}.")


@dataclass(frozen=True)
class _Choice:
    """Where a choice lands: the drop-down (and the option in it) or the radio or box to tick."""

    element: Locator
    found: str
    select: bool
    lone: bool = False
    """A checkbox of its own (no group): it is ticked."""


async def _choice(ctx: ToolContext, args: ChooseOption) -> _Choice | Outcome:
    page = ctx.page
    select = await _select_labelled(page, args.label)
    if select is not None:
        offered = [text.strip() for text in await select.locator("option").all_text_contents()]
        match = resolve(args.choice, offered)
        if match.found is None:
            return said.not_found("option", args.choice, match, f"in {quote(args.label, 60)}")
        return _Choice(select, match.found, select=True)
    for group_role, item_role in (("radiogroup", "radio"), ("group", "checkbox"), ("group", "radio")):
        group = page.get_by_role(group_role, name=args.label)  # type: ignore[arg-type]
        if await group.count() != 1:
            continue
        names = await _item_names(group.get_by_role(item_role))  # type: ignore[arg-type]
        if not names:
            continue  # a group of the other kind (boxes, where radios are wanted)
        match = resolve(args.choice, names)
        if match.found is None:
            return said.not_found("option", args.choice, match, f"in {quote(args.label, 60)}")
        item = group.get_by_role(item_role, name=match.found, exact=True)  # type: ignore[arg-type]
        return _Choice(item, match.found, select=False)
    lone = page.get_by_role("checkbox", name=args.choice, exact=True)
    if await lone.count() == 1:
        return _Choice(lone, args.choice, select=False, lone=True)
    return said.declined(f"No drop-down or group labelled {quote(args.label, 60)} is on the page.")


async def _select_labelled(page: Page, label: str) -> Locator | None:
    """The one visible drop-down whose label (read as a person reads it: `LABEL_OF_JS`) is ``label`` —
    exact, else the one label containing its words or one close spelling (`resolve`); None otherwise."""
    selects = page.locator("select")
    labels = [
        str(text)
        for text in await selects.evaluate_all(
            f"(ss) => ss.map((s) => s.getClientRects().length ? ({LABEL_OF_JS.strip()})(s) : '')"
        )
    ]
    found = resolve(label, [text for text in labels if text]).found
    if found is None or labels.count(found) != 1:
        return None
    return selects.nth(labels.index(found))


async def judge_choose(ctx: ToolContext, args: ChooseOption) -> Judged:
    """Whether this choice is consequential — its change submits the form, the box agrees to a charge
    ("I agree to be charged $9.99 a month") — with a handle on the element judged."""
    target = await _choice(ctx, args)
    if isinstance(target, Outcome):
        return Judged(NOT_CONSEQUENTIAL, target)
    action = f"choosing {quote(target.found, 60)} in {quote(args.label, 60)}"
    facts = await facts_of(ctx, target.element)
    if not facts.found:
        return Judged(unclear(action, "the control went away while it was checked"))
    return Judged(judge_choice(facts, target.found, action), target.element, await _handle(target.element))


async def choose_option(ctx: ToolContext, args: ChooseOption) -> Outcome:
    if (
        ctx.judged is not None
        and _approved(ctx)
        and await _changed_since(ctx.judged, await judge_choose(ctx, args))
    ):
        return _changed(f"choose {quote(args.choice, 60)}", "choose_option")
    target = await _choice(ctx, args)
    if isinstance(target, Outcome):
        return target
    if target.select and (kind := await card_kind(target.element, args.label)):
        return said.declined(  # an expiry month or year: the person's, as every card detail
            f"Not chosen: {quote(args.label, 60)} asks for a {kind}, which only the person enters, never the "
            "model. Leave it; when the payment is approved the person is asked for the card."
        )
    mark = await ctx.mark()
    if target.select:
        await ctx.select(target.element, target.found)
    else:
        await ctx.check(target.element)
    await ctx.settle_after(mark)  # a change may submit its form: the page is read once it has answered
    # The choice itself is the change a person sees, once the control is seen to hold it (a page's script
    # may put it back): never "No visible change" for a drop-down that now shows it.
    held = await _holds(target)
    if held is None:  # the control went away: the submit it set off is what the page now shows
        return Outcome(f"Chose {quote(target.found, 60)} in {quote(args.label, 60)}.")
    if held is not True:
        now = f" shows {quote(held, 60)}" if isinstance(held, str) else " is not ticked"
        return said.failed(f"Chose {quote(target.found, 60)}, but {quote(args.label, 60)} now{now}.")
    if target.lone:
        return Outcome(f"Ticked {quote(target.found, 60)}.", changes_expected=False)
    return Outcome(f"Chose {quote(target.found, 60)} in {quote(args.label, 60)}.", changes_expected=False)


async def _holds(target: _Choice) -> bool | str | None:
    """True when the drop-down shows (or the box is ticked with) the choice; else what the drop-down
    shows, or False for a box left unticked; None when the control is gone."""
    try:
        if not target.select:
            return await target.element.is_checked(timeout=1_000)
        shown = str(
            await target.element.evaluate(
                "(s) => s.selectedOptions.length ? s.selectedOptions[0].textContent.trim() : ''",
                timeout=1_000,
            )
        )
    except PlaywrightError:
        return None
    return True if shown == target.found.strip() else shown


async def press_key(ctx: ToolContext, args: PressKey) -> Outcome:
    key = " " if args.key == "Space" else args.key
    judged = ctx.judged or await judge_press_key(ctx, args)
    ordering = judged.consequence.site_marked
    mark = await ctx.mark()
    if judged.focus is not None and not await _still_focused(judged.focus):
        # The page moved the focus after the key was judged (and approved): into a payment form, say.
        # The key would land where nobody judged it: it is not pressed.
        return said.declined(
            f"Did not press {args.key}: the page moved the focus after it was checked. "
            "Call press_key again to press it where the focus is now."
        )
    if _approved(ctx) and await _changed_since(judged, await judge_press_key(ctx, args)):
        return _changed(f"press {args.key}", "press_key")
    idle = args.key in ("Enter", "Space") and await ctx.page.evaluate(
        "() => !document.activeElement || document.activeElement === document.body"
    )
    await ctx.page.keyboard.press(key)
    if ordering:
        kind = await ctx.wait_for_activity(mark, ("order", "error"), timeout_ms=20_000)
        state = await ctx.wait_for_view("confirmation") if kind == "order" else await ctx.read()
    else:
        await ctx.settle_after(mark)
        state = await ctx.read()
    placed = state.order_number if state.view == "confirmation" else None
    where = (
        " where no control had the focus" if idle else ""
    )  # so it pressed nothing, unless the page listens
    return Outcome(
        f"Pressed {args.key}{where}.",
        order_id=placed,
        total_cents=state.order_total_cents if placed else None,
    )


async def _still_focused(focus: JSHandle) -> bool:
    """Whether the element judged still has the focus; not, when it cannot be asked (the page moved on)."""
    try:
        return bool(await focus.evaluate("(el) => document.activeElement === el"))
    except PlaywrightError:
        return False


async def scroll_to(ctx: ToolContext, args: ScrollTo) -> Outcome:
    matches = ctx.page.get_by_text(args.text)
    visible = await _shown(matches)
    if not visible:
        return said.declined(f"No text {quote(args.text, 60)} is on the page.")
    target = visible[0]
    await target.scroll_into_view_if_needed()
    section = await target.evaluate(
        """(el) => { const s = el.closest('section[aria-label], [role="region"][aria-label], dialog, [role="dialog"]');
                     return s ? (s.getAttribute("aria-label") || "") : ""; }"""
    )
    where = f" (in {quote(str(section), 40)})" if section else ""
    return Outcome(f"Scrolled to {quote(args.text, 60)}{where}.", changes_expected=False)


GENERIC_TOOLS: tuple[Tool, ...] = (
    Tool("press", Press, press, generic=True, may_spend=True),
    Tool("fill_field", FillField, fill_field, generic=True, may_spend=True),
    Tool("choose_option", ChooseOption, choose_option, generic=True, may_spend=True),
    Tool("press_key", PressKey, press_key, generic=True, may_spend=True),
    Tool("scroll_to_text", ScrollTo, scroll_to, generic=True),
    ANSWER_DIALOG,
)
