from webagent.narration.names import normalize, resolve

RESTAURANTS = [
    "Italian Bistro",
    "Italian Bistro Express",
    "Sushi House",
    "Sushi House Premium",
    "Berlin Döner",
]
DISHES = ["Margherita Pizza", "Pepperoni Pizza", "Crème Brûlée", "Pork Dumplings (6)", "Tiramisu"]


def test_normalize_drops_case_accents_punctuation_and_plurals() -> None:
    assert normalize("  Crème  Brûlée! ") == "creme brulee"
    assert normalize("Margherita Pizzas") == "margherita pizza"
    assert normalize("Guacamole & Chips") == "guacamole and chip"


def test_exact_name_beats_look_alike() -> None:
    assert resolve("italian bistro", RESTAURANTS).found == "Italian Bistro"
    assert resolve("Sushi House", RESTAURANTS).found == "Sushi House"


def test_accents_plurals_and_partial_names() -> None:
    assert resolve("berlin doner", RESTAURANTS).found == "Berlin Döner"
    assert resolve("creme brulee", DISHES).found == "Crème Brûlée"
    assert resolve("margherita pizzas", DISHES).found == "Margherita Pizza"
    assert resolve("dumplings", DISHES).found == "Pork Dumplings (6)"


def test_small_typos_are_forgiven_when_one_name_is_close() -> None:
    assert resolve("Tiramisuu", DISHES).found == "Tiramisu"
    assert resolve("Margarita Pizza", DISHES).found == "Margherita Pizza"


def test_ambiguous_and_unknown_give_candidates() -> None:
    pizza = resolve("pizza", DISHES)
    assert pizza.found is None and pizza.ambiguous
    assert set(pizza.candidates) == {"Margherita Pizza", "Pepperoni Pizza"}
    unknown = resolve("lobster", DISHES)
    assert unknown.found is None and not unknown.ambiguous
