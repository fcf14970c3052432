"""Reading an overlay from its ARIA snapshot (the browser side is tested in tests/e2e/test_overlays.py)."""

from __future__ import annotations

from webagent.browser.obstruction import Blocker, Obstructed, describe_blocker


def test_a_dialog_is_named_and_its_controls_listed_in_page_order() -> None:
    snapshot = """- dialog "Quick \\"survey\\"":
  - heading "Quick survey" [level=2]
  - paragraph: Tell us
  - button "Answer survey"
  - button "Close survey": ×
  - link "Not now":
    - /url: "#"
  - button "×\""""
    blocker = describe_blocker(snapshot, modal=True)
    assert blocker.title == 'Quick "survey"'
    assert blocker.controls == [
        ("button", "Answer survey"),
        ("button", "Close survey"),
        ("link", "Not now"),
        ("button", "×"),
    ]


def test_a_layer_without_a_role_is_named_by_its_first_words() -> None:
    blocker = describe_blocker('- note:\n  - strong: Free dessert today!\n  - button "Close": ✕', False)
    assert blocker.title == "Free dessert today!" and blocker.names == ["Close"]
    assert describe_blocker('- button "Allow"', False).describe() == "an overlay"


def test_the_refusal_names_the_dialog_and_every_button() -> None:
    blocker = Blocker(title="Stay updated", controls=[("button", "Allow notifications")], modal=True)
    message = str(Obstructed(blocker, "offers no way to decline it"))
    assert message.startswith('a dialog "Stay updated" covers the page and offers no way to decline it;')
    assert 'its buttons: "Allow notifications"' in message and "press" in message
