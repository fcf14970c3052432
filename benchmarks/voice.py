"""How well a spoken order survives the offline round trip: espeak-ng → pocketsphinx → goal reader.

    python benchmarks/voice.py [--goals 40] [--seed 1] [--rate 16000|22050] [--set silprob=0.1 …]
                               [--only exact|natural|rejects]

Goals are drawn at random from the shop's catalog, worded the way the README recommends ("two large
Margherita Pizza and a Tiramisu from Italian Bistro, pay cash"): 1–2 dishes with a count, a required
choice said before the dish (or "with white rice" after it), the restaurant last, sometimes a payment
or a delivery time. Each is spoken by espeak-ng, recognised with the shop's grammar, mapped back to
the shop's names and read by the goal reader; it counts as right only if restaurant, dishes,
quantities, choices, payment and slot all match what was meant (the "exact" set).

Then the "natural" set: orders worded the way people speak them (`NATURAL`, written down before the
grammar learnt partial names and carrier phrases) — "I would like a lasagna and a tiramisu from Italian
Bistro please", a dish by the words that identify it on its menu, counts as words, "can I get",
"thanks", now and then a plural — each spoken by one of `VOICES` (espeak-ng voice variants and
speaking rates, in turn). Then a set of sentences that are not orders: each should come back as "not
understood" (so the agent asks) rather than as an order.
Needs espeak-ng (and sox for --rate 16000). Not a test: it prints a table.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from webagent.voice import transcribe
from webagent.voice.audio import load_audio
from webagent.voice.reading import read_spoken
from webagent.voice.transcribe import SphinxRecognizer, offline_recognizer
from webagent.voice.vocabulary import ShopVocabulary, from_catalog

CATALOG = Path(__file__).resolve().parent.parent / "demo_site" / "catalog.json"
NOT_ORDERS = (
    "The weather is nice today in London.",
    "Please call me back tomorrow morning.",
    "I want a pizza.",
    "Hello, can you hear me?",
    "What time does the shop close?",
    "My cat likes to sleep on the sofa.",
    "Do you have anything vegetarian?",
    "Send it to my office on Main Street.",
    "I think I am not hungry after all.",
    "Can you recommend something nice?",
    "How long will the delivery take?",
    "Let me ask my friend first.",
)
WORDS = {1: ("a", "one"), 2: ("two",), 3: ("three",)}
Item = tuple[str, int, str]  # the dish as the menu writes it, how many, the required choice ("" if none)
NATURAL: tuple[tuple[str, str, tuple[Item, ...], str | None, str | None], ...] = (
    # (what is said, the restaurant, the items meant, payment, delivery slot)
    ("Order one tiramisu and one lasagna from Italian Bistro.", "Italian Bistro",
     (("Tiramisu", 1, ""), ("Lasagna al Forno", 1, "")), None, None),
    ("I would like a lasagna and a tiramisu from Italian Bistro please.", "Italian Bistro",
     (("Lasagna al Forno", 1, ""), ("Tiramisu", 1, "")), None, None),
    ("Can I get two carbonara from Italian Bistro, thanks.", "Italian Bistro",
     (("Spaghetti Carbonara", 2, ""),), None, None),
    ("I'd like a large pepperoni and a lemonade from Italian Bistro.", "Italian Bistro",
     (("Pepperoni Pizza", 1, "Large"), ("Lemonade", 1, "")), None, None),
    ("Could I have three nigiri and a miso soup from Sushi House please.", "Sushi House",
     (("Salmon Nigiri", 3, ""), ("Miso Soup", 1, "")), None, None),
    ("Get me a california roll and two edamame from Sushi House.", "Sushi House",
     (("California Roll", 1, ""), ("Edamame", 2, "")), None, None),
    ("Can I get a medium burrito and two churros from Taco Fiesta.", "Taco Fiesta",
     (("Chicken Burrito", 1, "Medium"), ("Churros", 2, "")), None, None),
    ("I would like two tacos and a quesadilla from Taco Fiesta, pay cash.", "Taco Fiesta",
     (("Carnitas Tacos", 2, ""), ("Veggie Quesadilla", 1, "")), "Cash", None),
    ("I'd like a hot tikka masala and two naan from Curry Palace please.", "Curry Palace",
     (("Chicken Tikka Masala", 1, "Hot"), ("Garlic Naan", 2, "")), None, None),
    ("Order one mild butter chicken and a lassi from Bombay Express.", "Bombay Express",
     (("Butter Chicken", 1, "Mild"), ("Mango Lassi", 1, "")), None, None),
    ("Could I have a vegan burger and a small smoothie from Green Bowl, thank you.", "Green Bowl",
     (("Vegan Burger", 1, ""), ("Green Smoothie", 1, "Small")), None, None),
    ("I'll have a cheeseburger and a shake from Burger Barn, thanks.", "Burger Barn",
     (("Bacon Cheeseburger", 1, ""), ("Chocolate Shake", 1, "")), None, None),
    ("Could I get a mild kung pao and a fried rice from Dragon Wok.", "Dragon Wok",
     (("Kung Pao Chicken", 1, "Mild"), ("Egg Fried Rice", 1, "")), None, None),
    ("I would like a beef pho and two spring rolls from Pho Saigon please.", "Pho Saigon",
     (("Beef Pho", 1, ""), ("Fresh Spring Rolls", 2, "")), None, None),
    ("Can I get a medium pad thai and a sticky rice from Bangkok Street.", "Bangkok Street",
     (("Pad Thai", 1, "Medium"), ("Mango Sticky Rice", 1, "")), None, None),
    ("I'd like a hot massaman and a thai iced tea from Bangkok Street, pay by card.", "Bangkok Street",
     (("Massaman Curry", 1, "Hot"), ("Thai Iced Tea", 1, "")), "Card on delivery", None),
    ("Could I have a gyro and a baklava from Athens Grill.", "Athens Grill",
     (("Lamb Gyro", 1, ""), ("Baklava", 1, "")), None, None),
    ("I would like two souvlaki and a greek salad from Athens Grill please.", "Athens Grill",
     (("Chicken Souvlaki Plate", 2, ""), ("Greek Salad", 1, "")), None, None),
    ("Get me a mild bibimbap and a bulgogi from Seoul Kitchen.", "Seoul Kitchen",
     (("Bibimbap", 1, "Mild"), ("Bulgogi Beef", 1, "")), None, None),
    ("Can I get a croissant and a medium cafe au lait from Le Petit Cafe, thank you.", "Le Petit Café",
     (("Butter Croissant", 1, ""), ("Café au Lait", 1, "Medium")), None, None),
    ("I'd like a quiche and an onion soup from Le Petit Cafe.", "Le Petit Café",
     (("Quiche Lorraine", 1, ""), ("French Onion Soup", 1, "")), None, None),
    ("Can I have a hot shawarma and a hummus from Falafel Corner.", "Falafel Corner",
     (("Chicken Shawarma Wrap", 1, "Hot"), ("Hummus & Pita", 1, "")), None, None),
    ("I would like a brisket and a mac and cheese from BBQ Smokehouse please.", "BBQ Smokehouse",
     (("Brisket Plate", 1, ""), ("Mac and Cheese", 1, "")), None, None),
    ("Can I get a waffle and a hot chocolate from Pancake House, thanks.", "Pancake House",
     (("Belgian Waffle", 1, ""), ("Hot Chocolate", 1, "")), None, None),
    ("I'd like a large hawaiian from Pizza Planet, pay cash.", "Pizza Planet",
     (("Hawaiian Pizza", 1, "Large"),), "Cash", None),
    ("Could I have a tonkotsu and a gyoza from Ramen Yokocho, deliver at seven pm.", "Ramen Yokocho",
     (("Tonkotsu Ramen", 1, ""), ("Gyoza (5)", 1, "")), None, "19:00-19:30"),
    ("Order a salmon poke with brown rice from Poke Paradise.", "Poke Paradise",
     (("Salmon Poke Bowl", 1, "Brown rice"),), None, None),
    ("I would like a paella and two croquetas from Tapas Barcelona.", "Tapas Barcelona",
     (("Seafood Paella", 1, ""), ("Jamón Croquetas", 2, "")), None, None),
    ("Can I get a lobster roll and a chowder from Seafood Shack please.", "Seafood Shack",
     (("Lobster Roll", 1, ""), ("Clam Chowder", 1, "")), None, None),
    ("I'd like a lava cake and a brownie from Sweet Tooth Desserts.", "Sweet Tooth Desserts",
     (("Chocolate Lava Cake", 1, ""), ("Brownie Sundae", 1, "")), None, None),
    ("I'll have a hot beef doner and a lahmacun from Berlin Doner please.", "Berlin Döner",
     (("Beef Döner", 1, "Hot"), ("Lahmacun", 1, "")), None, None),
    ("I would like a mild doro wat and two sambusa from Addis Ethiopian.", "Addis Ethiopian",
     (("Doro Wat", 1, "Mild"), ("Sambusa (2)", 2, "")), None, None),
    ("Can I get two cheeseburgers from Burger Barn please.", "Burger Barn",
     (("Bacon Cheeseburger", 2, ""),), None, None),
    ("I'd like two croissants from Le Petit Cafe.", "Le Petit Café",
     (("Butter Croissant", 2, ""),), None, None),
    ("Order three samosas from Bombay Express, thank you.", "Bombay Express",
     (("Samosa (2)", 3, ""),), None, None),
)  # fmt: skip
VOICES = (("en-us", 175), ("en-us+f3", 160), ("en-us+m3", 190), ("en-us+f4", 175), ("en-us", 150),
          ("en-us+m7", 200))  # fmt: skip
"""espeak-ng voice (variant) and words per minute, taken in turn by the natural set."""


def vocabulary() -> ShopVocabulary:
    """The shop's names as its pages show them (here read from the catalog the shop serves)."""
    return from_catalog(json.loads(CATALOG.read_text(encoding="utf-8")))


def goals(count: int, seed: int) -> list[tuple[str, tuple[object, ...]]]:
    """(sentence, what it means) pairs."""
    catalog = json.loads(CATALOG.read_text(encoding="utf-8"))
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        restaurant = rng.choice(catalog["restaurants"])
        dishes = rng.sample([d for d in restaurant["menu"] if not d["sold_out"]], rng.choice((1, 2)))
        said, meant = [], []
        for dish in dishes:
            quantity = rng.randint(1, 3)
            word = rng.choice(WORDS[quantity])
            name = dish["name"].split(" (")[0]
            required = [o for o in dish["options"] if o["required"]]
            choice = rng.choice(required[0]["choices"])["name"] if required else None
            if choice is None:
                said.append(f"{word} {name}")
            elif " " in choice:
                said.append(f"{word} {name} with {choice.lower()}")
            else:
                said.append(f"{word} {choice.lower()} {name}")
            meant.append((name.lower().replace("&", "and"), quantity, choice.lower() if choice else ""))
        tail, payment, slot = rng.choice(
            (("", None, None), ("", None, None), (", pay cash", "Cash", None),
             (", deliver at seven pm", None, "19:00-19:30"), (", pay by card", "Card on delivery", None))
        )  # fmt: skip
        lead = rng.choice(("Order ", "I would like ", ""))
        sentence = f"{lead}{' and '.join(said)} from {restaurant['name']}{tail}."
        out.append((sentence, (restaurant["name"].lower(), sorted(meant), payment, slot)))
    return out


def _dish(name: str) -> str:
    return name.split(" (")[0].lower().replace("&", "and")


def natural() -> list[tuple[str, tuple[object, ...], tuple[str, int]]]:
    """(sentence, what it means, voice) triples of the natural set."""
    return [
        (
            sentence,
            (restaurant.lower(), sorted((_dish(d), n, c.lower()) for d, n, c in items), payment, slot),
            VOICES[index % len(VOICES)],
        )
        for index, (sentence, restaurant, items, payment, slot) in enumerate(NATURAL)
    ]


def meaning(goal: str, vocab: ShopVocabulary) -> tuple[object, ...]:
    """What the goal reader takes from a typed goal, held to the shop's names, in the shape `goals` gives."""
    spec = read_spoken(goal, vocab).spec
    items = []
    for item in spec.items:
        choice = item.options[0].lower() if item.options else ""
        items.append((_dish(item.dish), item.quantity, choice))
    return ((spec.restaurant or "").lower(), sorted(items), spec.payment_method, spec.delivery_slot)


def speak(text: str, path: Path, rate: int, voice: tuple[str, int] = ("en-us", 175)) -> None:
    name, speed = voice
    subprocess.run(["espeak-ng", "-v", name, "-s", str(speed), "-w", str(path), "--", text], check=True)
    if rate != 22050:
        resampled = path.with_suffix(".16k.wav")
        subprocess.run(
            ["sox", "-D", str(path), "-r", str(rate), "-c", "1", "-b", "16", str(resampled)], check=True
        )
        resampled.replace(path)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--goals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=int, default=22050, choices=(16000, 22050))
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a decoder option")
    parser.add_argument("--pad", type=float, help="seconds of silence around the speech")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument(
        "--only", action="append", choices=("exact", "natural", "rejects"), help="one set (repeatable)"
    )
    args = parser.parse_args()
    for setting in args.set:
        key, _, value = setting.partition("=")
        transcribe.DECODER_OPTIONS[key] = (
            float(value) if value.replace(".", "").replace("e-", "").isdigit() else value
        )
    if args.pad is not None:
        transcribe.PADDING_S = args.pad
    vocab = vocabulary()
    started = time.process_time()
    recognizer = offline_recognizer(vocab)
    print(f"grammar + recogniser built in {time.process_time() - started:.2f} s CPU")
    only = set(args.only or ("exact", "natural", "rejects"))
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        if "exact" in only:
            exact = [(sentence, meant, ("en-us", 175)) for sentence, meant in goals(args.goals, args.seed)]
            lines.append(
                f"exact names, seed {args.seed}: " + score(recognizer, vocab, exact, Path(tmp), args)
            )
        if "natural" in only:
            lines.append("natural wording: " + score(recognizer, vocab, natural(), Path(tmp), args))
        if "rejects" in only:
            rejected = 0
            for index, sentence in enumerate(NOT_ORDERS):
                path = Path(tmp) / f"other{index}.wav"
                speak(sentence, path, args.rate)
                transcript = recognizer.recognize(load_audio(path))
                rejected += not transcript.understood
                if transcript.understood:
                    print(f"  TAKEN {sentence!r}\n        → {transcript.text!r}")
            lines.append(f"{len(NOT_ORDERS)} non-orders: {rejected} not understood")
    print(f"\n{args.rate} Hz")
    for line in lines:
        print(f"  {line}")


def score(
    recognizer: SphinxRecognizer,
    vocab: ShopVocabulary,
    cases: list[tuple[str, tuple[object, ...], tuple[str, int]]],
    tmp: Path,
    args: argparse.Namespace,
) -> str:
    """Speak, recognise and read each case; a line of counts (right, asked, wrong) and CPU time."""
    right = wrong = asked = 0
    cpu = audio_s = 0.0
    for index, (sentence, meant, voice) in enumerate(cases):
        path = tmp / f"goal{index}.wav"
        speak(sentence, path, args.rate, voice)
        audio = load_audio(path)
        started = time.process_time()
        transcript = recognizer.recognize(audio)
        cpu += time.process_time() - started
        audio_s += audio.seconds or 0
        if not transcript.understood:
            asked += 1
            verdict = "asked"
        elif meaning(transcript.text, vocab) == meant:
            right += 1
            verdict = "right"
        else:
            wrong += 1
            verdict = "WRONG"
        if args.verbose or verdict != "right":
            print(f"  {verdict:5} {sentence!r} ({voice[0]}, {voice[1]} wpm)")
            print(f"        → {transcript.text or transcript.heard!r}")
    total = len(cases)
    return (
        f"{total} orders: {right} right ({100 * right / total:.0f}%), {asked} not understood (the agent asks), "
        f"{wrong} wrong · {cpu / total:.2f} s CPU per order ({cpu / audio_s:.2f}× real time)"
    )


if __name__ == "__main__":
    main()
