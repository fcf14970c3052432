"""The words of page events: an app sheet's ways out, a countdown an ad names, and the sentences a dialog,
a tab or a download is narrated in — page text quoted on one line, never a line of the tool's own.

The labels below were written before the reader of them changed (the issue's "continue on the web").
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webagent.browser.obstruction import countdown
from webagent.narration import happened
from webagent.narration.consent import meaning

STAY_ON_THE_WEB = [
    "Continue on the web", "Continue in browser", "Stay on web", "Use the website", "Keep using the web",
    "Continue with web version", "Use web instead", "Go on in the browser", "Continue in your browser",
    "Stay in browser",
]  # fmt: skip
STILL_AGREEING = [
    "Open in app", "Continue in the app", "Get the app", "Accept and continue on the web",
    "Continue on website and subscribe", "Continue", "Continue to website",
    "Continue with browser notifications",  # a reviewer's: it turns notifications on
]  # fmt: skip
NOT_A_WAY_OUT = ["Use browser location"]  # a reviewer's: it shares where you are


@pytest.mark.parametrize("label", STAY_ON_THE_WEB)
def test_staying_on_the_web_is_a_way_out_of_an_app_sheet(label: str) -> None:
    assert meaning(label) == "decline"


@pytest.mark.parametrize("label", STILL_AGREEING)
def test_going_to_the_app_or_agreeing_on_the_way_is_not(label: str) -> None:
    assert meaning(label) == "accept"


@pytest.mark.parametrize("label", NOT_A_WAY_OUT)
def test_a_browser_feature_named_after_the_web_is_never_pressed_as_a_way_out(label: str) -> None:
    assert meaning(label) != "decline"


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ('- dialog "Advertisement":\n  - text: You can close this ad in 5 s', 5),
        ('- button "Skip in 3" [disabled]', 3),
        ("- text: Your video will play after 10 seconds", 10),
        ("- text: Please wait 4 sec", 4),
        ("- text: Get 20% off in 3 days", None),
        ("- text: Delivery in 30 min", None),
        # a reviewer's: numbers that are not a wait (each cost ~14 s of waiting, or an untrue sentence)
        ("- text: Available in 40 countries", None),
        ("- text: Sign up in 3 easy steps", None),
        ("- text: Free delivery after 3 orders", None),
        ("- text: Now in 12 cities", None),
        ('- dialog "Newsletter":\n  - button "No thanks"', None),
    ],
)
def test_a_countdown_is_read_from_what_the_layer_says(text: str, seconds: int | None) -> None:
    assert countdown(text) == seconds


page_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300)


@given(page_text, page_text, st.sampled_from(["confirm", "prompt", "beforeunload"]))
def test_a_pages_words_stay_quoted_on_one_line(message: str, other: str, kind: str) -> None:
    lines = [
        happened.alert(message),
        happened.asked(kind, message, other, "press"),  # type: ignore[arg-type]
        happened.asked(kind, message, other, None),  # type: ignore[arg-type]
        happened.answered(kind, message, True, other),  # type: ignore[arg-type]
        happened.new_tab(message, "http://x.test/" + other),
        happened.tab_closed(message, "http://x.test/"),
        happened.download(message),
    ]
    for line in lines:
        assert len(line.splitlines()) == 1, line
        assert line.startswith(("The page", "A new tab ")), line


# Written before the reader of them changed: close icons named by their class or file, and "close" or "no
# thanks" in the languages a European shop's popups use.
CLOSE_ICONS_AND_WORDS = [
    "ic_close", "close_modal", "icon-x", "btn x", "Schließen", "Fermer", "Cerrar", "Chiudi", "Sluiten",
    "Fechar", "Nein, danke", "Non merci", "No gracias", "Jetzt nicht", "Plus tard", "Nicht jetzt",
]  # fmt: skip
NOT_WAYS_OUT = [
    "Schließen und akzeptieren", "Fermer et accepter", "Cerrar y aceptar", "Alle akzeptieren", "Tout accepter",
    "Jetzt abonnieren", "Accepter", "Aceptar",
]  # fmt: skip


@pytest.mark.parametrize("label", CLOSE_ICONS_AND_WORDS)
def test_a_close_icon_by_its_name_and_close_in_other_languages_are_ways_out(label: str) -> None:
    assert meaning(label) == "decline"


@pytest.mark.parametrize("label", NOT_WAYS_OUT)
def test_agreeing_in_other_languages_is_never_a_way_out(label: str) -> None:
    assert meaning(label) != "decline"


# A reviewer's: labels that pay, book or agree while they seem to say "later" or "close" — never a way out.
PAYS_OR_AGREES = [
    "Später bezahlen", "Payer plus tard", "Pagar más tarde", "Book later", "Checkout later", "Purchase later",
    "Schließen und alle erlauben", "Fermer et autoriser", "Cerrar y permitir", "Chiudi e consenti",
    "Sluiten en akkoord", "Fechar e concordar", "Nein danke, jetzt kaufen", "Schließen und registrieren",
    "Zamknij i akceptuj",
]  # fmt: skip


@pytest.mark.parametrize("label", PAYS_OR_AGREES)
def test_a_label_that_pays_books_or_agrees_is_never_a_way_out(label: str) -> None:
    assert meaning(label) != "decline"
