from webagent.narration.state import CheckoutForm, PageState
from webagent.sites.demo_shop import TOOLS
from webagent.sites.demo_shop.graph import GRAPH, edges, offered, possible, refusal, render


def test_every_tool_is_in_the_graph_and_back() -> None:
    assert set(GRAPH) == {tool.name for tool in TOOLS}


def test_wrong_view_refusal_names_the_way_there() -> None:
    at_checkout = PageState(view="checkout", cart_count=1, checkout=CheckoutForm())
    assert refusal("add_to_cart", at_checkout) == (
        "add_to_cart needs an open restaurant page; you are at the checkout page — call open_restaurant."
    )
    on_menu = PageState(view="restaurant", restaurant="X")
    assert refusal("place_order", on_menu) == (
        "place_order needs the checkout page; you are at an open restaurant page — call go_to_checkout."
    )


def test_condition_refusals() -> None:
    empty = PageState(view="restaurant")
    assert refusal("go_to_checkout", empty) == (
        "go_to_checkout cannot run: the cart is empty — open_restaurant and add_to_cart first."
    )
    below = PageState(view="restaurant", cart_count=1, min_order_notice="Add $5.00 more")
    assert "minimum order is not reached" in (refusal("go_to_checkout", below) or "")
    incomplete = PageState(view="checkout", cart_count=1, checkout=CheckoutForm(name="Ana"))
    assert refusal("place_order", incomplete) == (
        "place_order cannot run: delivery details are incomplete — fill_delivery_details."
    )
    complete = CheckoutForm(
        name="A", address="1 Road", phone="555", delivery_slot="ASAP", payment_method="Cash"
    )
    assert refusal("place_order", PageState(view="checkout", cart_count=1, checkout=complete)) is None


def test_possible_lists_what_the_state_allows() -> None:
    menu = PageState(view="restaurant", cart_count=2)
    assert possible(menu) == [
        "back_to_restaurants",
        "add_to_cart",
        "change_quantity",
        "remove_from_cart",
        "go_to_checkout",
    ]
    assert "add_to_cart" not in possible(PageState(view="restaurants"))


def test_render_mermaid_and_dot() -> None:
    mermaid = render()
    assert mermaid.startswith("flowchart LR")
    assert 'restaurant -- "add_to_cart" --> restaurant' in mermaid
    assert 'checkout -- "place_order [cart_not_empty, details_complete]" --> confirmation' in mermaid
    dot = render("dot")
    assert dot.startswith("digraph webagent {") and dot.rstrip().endswith("}")
    assert len([line for line in dot.splitlines() if "->" in line]) == len(edges())


def test_a_key_is_offered_where_it_lands_and_a_page_not_the_shops_gets_what_works_anywhere() -> None:
    """press_key only where a field has the focus or a dialog is open (at the open cart drawer the 1.5B
    pressed Enter three times instead of go_to_checkout); on a page read as any page, no shop tool."""
    drawer = PageState(view="restaurant", restaurant="Taco Fiesta", cart_count=3, cart_open=True)
    assert "press_key" not in offered(drawer) and "go_to_checkout" in offered(drawer)
    assert "press_key" in offered(drawer.model_copy(update={"dialogs": ["Choose options"]}))
    assert "press_key" in offered(PageState(view="restaurants", focused="Search restaurants"))
    newsletter = PageState(view="unknown", title="Newsletter", form=["Email *"])
    anywhere = offered(newsletter)
    assert {"fill_field", "choose_option", "press", "press_key", "read_page", "finish"} <= set(anywhere)
    assert not {"search_restaurants", "add_to_cart", "go_to_checkout", "place_order"} & set(anywhere)
