"""How well a spoken order survives the offline round trip: espeak-ng → pocketsphinx → goal reader.

    python benchmarks/voice.py [--goals 40] [--seed 1] [--rate 16000|22050] [--set silprob=0.1 …]

Goals are drawn at random from the shop's catalog, worded the way the README recommends ("two large
Margherita Pizza and a Tiramisu from Italian Bistro, pay cash"): 1–2 dishes with a count, a required
choice said before the dish (or "with white rice" after it), the restaurant last, sometimes a payment
or a delivery time. Each is spoken by espeak-ng, recognised with the shop's grammar, mapped back to
the shop's names and read by the goal reader; it counts as right only if restaurant, dishes,
quantities, choices, payment and slot all match what was meant. Then a set of sentences that are not
orders: each should come back as "not understood" (so the agent asks) rather than as an order.
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
from webagent.voice.transcribe import offline_recognizer
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


def meaning(goal: str, vocab: ShopVocabulary) -> tuple[object, ...]:
    """What the goal reader takes from a typed goal, held to the shop's names, in the shape `goals` gives."""
    spec = read_spoken(goal, vocab).spec
    items = []
    for item in spec.items:
        choice = item.options[0].lower() if item.options else ""
        items.append((item.dish.split(" (")[0].lower().replace("&", "and"), item.quantity, choice))
    return ((spec.restaurant or "").lower(), sorted(items), spec.payment_method, spec.delivery_slot)


def speak(text: str, path: Path, rate: int) -> None:
    subprocess.run(["espeak-ng", "-v", "en-us", "-w", str(path), text], check=True)
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
    right = wrong = asked = 0
    cpu = audio_s = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for index, (sentence, meant) in enumerate(goals(args.goals, args.seed)):
            path = Path(tmp) / f"goal{index}.wav"
            speak(sentence, path, args.rate)
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
                print(f"  {verdict:5} {sentence!r}\n        → {transcript.text or transcript.heard!r}")
        rejected = 0
        for index, sentence in enumerate(NOT_ORDERS):
            path = Path(tmp) / f"other{index}.wav"
            speak(sentence, path, args.rate)
            transcript = recognizer.recognize(load_audio(path))
            rejected += not transcript.understood
            if transcript.understood:
                print(f"  TAKEN {sentence!r}\n        → {transcript.text!r}")
    total = args.goals
    print(
        f"\n{args.rate} Hz · {total} orders: {right} right ({100 * right / total:.0f}%), {asked} not understood "
        f"(the agent asks), {wrong} wrong · {len(NOT_ORDERS)} non-orders: {rejected} not understood · "
        f"{cpu / total:.2f} s CPU per order ({cpu / audio_s:.2f}× real time)"
    )


if __name__ == "__main__":
    main()
