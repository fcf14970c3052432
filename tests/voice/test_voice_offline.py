"""Spoken orders end to end, offline: espeak-ng speaks, pocketsphinx hears with the shop's grammar.

The recordings are made here from sentences written in the tests (`webagent.testing.spoken_wav`:
espeak-ng, then 16 kHz mono). The command-line runs are what a person types: `webagent run --voice-in
FILE --approve auto …` must place the order spoken in FILE; speech that is not an order must end in a
question and no order; the agent's words must come out as WAV files in the run folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import wave
from pathlib import Path
from typing import Any

import pytest

from demo_site import Shop
from demo_site.db import CATALOG_PATH, ShopDB
from webagent.browser.session import Browser
from webagent.sites.demo_shop import DEMO_SHOP
from webagent.sync import run_sync
from webagent.testing import spoken_wav
from webagent.voice.audio import load_audio, loudest_dbfs
from webagent.voice.reading import read_spoken
from webagent.voice.transcribe import SphinxRecognizer, offline_recognizer
from webagent.voice.vocabulary import DishNames, RestaurantNames, ShopVocabulary, shop_vocabulary

REPO = Path(__file__).resolve().parents[2]
PROFILE = ["--name", "Ada", "--address", "12 Oak Street", "--phone", "555-0101", "--payment", "Cash"]
CATALOG = json.loads(Path(CATALOG_PATH).read_text(encoding="utf-8"))


def catalog_vocabulary() -> ShopVocabulary:
    """Ground truth for the names the shop shows (tests may read the catalog; webagent may not)."""
    return ShopVocabulary(
        key="catalog",
        restaurants=[
            RestaurantNames(
                name=r["name"],
                dishes=[
                    DishNames(name=d["name"], choices=[c["name"] for o in d["options"] for c in o["choices"]])
                    for d in r["menu"]
                ],
            )
            for r in CATALOG["restaurants"]
        ],
    )


def names(vocabulary: ShopVocabulary) -> dict[str, dict[str, list[str]]]:
    """Restaurant → dish → choices, whatever order the pages list them in."""
    return {r.name: {d.name: sorted(d.choices) for d in r.dishes} for r in vocabulary.restaurants}


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("voice")


def webagent(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "WEBAGENT_MODEL"))}
    env.update(
        PYTHONPATH=str(REPO), WEBAGENT_CACHE_DIR=str(cwd / "cache"), WEBAGENT_PLAYER="none", COLUMNS="200"
    )
    done = subprocess.run(
        [sys.executable, "-m", "webagent", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def transcript(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "transcript.jsonl").read_text().splitlines()]


def sounds(path: Path) -> float:
    """Seconds of audible sound in a WAV file (fails unless it is a WAV file with sound in it)."""
    audio = load_audio(path)
    assert audio.pcm is not None and audio.rate is not None
    assert loudest_dbfs(audio.pcm, audio.rate) > -30
    with wave.open(str(path)) as reader:
        return reader.getnframes() / reader.getframerate()


@pytest.fixture(scope="module")
def ordered_by_voice(work: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    recording = spoken_wav("Two salmon nigiri and a miso soup from Sushi House.", work / "goal.wav")
    db = work / "ordered.db"
    done = webagent(
        "run", "--voice-in", str(recording), "--approve", "auto", "--speak", "--db", str(db), "--json", *PROFILE,
        cwd=work,
    )  # fmt: skip
    return done, db


def test_run_voice_in_places_the_order_spoken_in_the_file(
    ordered_by_voice: tuple[subprocess.CompletedProcess[str], Path], work: Path
) -> None:
    done, db = ordered_by_voice
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["outcome"] == "ordered"
    (order,) = ShopDB(db).orders()
    assert order["id"] == result["order_id"]
    assert sorted((i["dish_name"], i["quantity"]) for i in order["items"]) == [
        ("Miso Soup", 1),
        ("Salmon Nigiri", 2),
    ]
    # Shown before the agent acted, and recorded in the run folder with the recording.
    assert 'Heard (pocketsphinx): "2 Salmon Nigiri and 1 Miso Soup from Sushi House."' in done.stderr
    run_dir = work / result["run_dir"]
    events = transcript(run_dir)
    kinds = [e["event"] for e in events]
    assert kinds.index("heard") < kinds.index("model")
    heard = events[kinds.index("heard")]
    assert heard["heard"] == "two salmon nigiri and a miso soup from sushi house" and heard["usable"] is True
    assert (run_dir / "voice-in.wav").read_bytes() == (work / "goal.wav").read_bytes()
    # --speak: the final message, spoken offline into the run folder.
    (spoke,) = [e for e in events if e["event"] == "spoke"]
    assert spoke["kind"] == "final" and spoke["text"] == result["message"]
    assert sounds(run_dir / spoke["audio"]) > 1.0
    # The run's report.html shows what was heard and said, each with its recording to play.
    report = (run_dir / "report.html").read_text()
    assert "Goal: 2 Salmon Nigiri and 1 Miso Soup from Sushi House. (spoken)" in report
    assert '<audio controls preload="none" src="voice-in.wav">' in report
    assert f'<audio controls preload="none" src="{spoke["audio"]}">' in report


def test_the_shops_names_are_cached_and_the_cache_is_used(
    ordered_by_voice: tuple[subprocess.CompletedProcess[str], Path], work: Path
) -> None:
    (cached,) = (work / "cache" / "shop-vocabulary").glob("*.json")
    vocabulary = ShopVocabulary.model_validate_json(cached.read_text())
    assert names(vocabulary) == names(catalog_vocabulary())
    before = cached.stat().st_mtime_ns
    recording = spoken_wav("The weather is nice today in London.", work / "weather.wav")
    done = webagent(
        "run",
        "--voice-in",
        str(recording),
        "--speak",
        "--db",
        str(work / "q.db"),
        "--json",
        *PROFILE,
        cwd=work,
    )
    assert cached.stat().st_mtime_ns == before  # read from the cache, not from 26 menus again
    # Not an order: a question (the run pauses for its answer), never a guess, nothing ordered.
    assert done.returncode == 3, done.stderr
    result = json.loads(done.stdout)
    assert result["waiting_for"] == "answer"
    assert result["question"] == "What would you like to order, and from which restaurant?"
    assert ShopDB(work / "q.db").orders() == []
    assert "no order I could read" in done.stderr
    events = transcript(work / result["run_dir"])
    assert [e["usable"] for e in events if e["event"] == "heard"] == [False]
    (spoke,) = [e for e in events if e["event"] == "spoke"]
    assert spoke["kind"] == "question" and spoke["text"] == result["question"]
    assert sounds(work / result["run_dir"] / spoke["audio"]) > 1.0


def test_chat_by_recordings_orders_and_exits(work: Path) -> None:
    turns = [
        spoken_wav("Two large margherita pizza and a tiramisu from Italian Bistro.", work / "turn1.wav"),
        spoken_wav("Exit.", work / "turn2.wav"),
    ]
    db = work / "chat.db"
    done = webagent(
        "chat",
        "--headless",
        "--voice-in",
        *map(str, turns),
        "--approve",
        "auto",
        "--db",
        str(db),
        *PROFILE,
        cwd=work,
    )
    assert done.returncode == 0, done.stderr
    assert "you (heard)> 2 Large Margherita Pizza and 1 Tiramisu from Italian Bistro." in done.stdout
    assert "agent> Placed order #1" in done.stdout
    (order,) = ShopDB(db).orders()
    assert sorted((i["dish_name"], i["quantity"]) for i in order["items"]) == [
        ("Margherita Pizza", 2),
        ("Tiramisu", 1),
    ]


def test_typed_chat_with_speak_speaks_each_reply(tmp_path: Path) -> None:
    db = tmp_path / "typed.db"
    done = webagent(
        "chat", "--headless", "--speak", "--approve", "auto", "--db", str(db), *PROFILE, cwd=tmp_path,
        stdin="Order a Tiramisu and 2 Lemonade from Italian Bistro\nexit\n",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "agent> Placed order #1" in done.stdout
    assert len(ShopDB(db).orders()) == 1
    (run_dir,) = (tmp_path / "runs").iterdir()
    (spoke,) = [e for e in transcript(run_dir) if e["event"] == "spoke"]
    assert spoke["kind"] == "reply" and spoke["text"].startswith("Placed order #1")
    assert sounds(run_dir / spoke["audio"]) > 1.0


def test_names_are_read_through_the_browser_and_a_broken_cache_is_replaced(
    shop: Shop, agent_browser: Browser, tmp_path: Path
) -> None:
    async def read() -> ShopVocabulary:
        session = await agent_browser.new_session(shop.url, DEMO_SHOP)
        try:
            await session.open("/")
            return await shop_vocabulary(session, tmp_path)
        finally:
            await session.close()

    first = run_sync(read())
    assert names(first) == names(catalog_vocabulary())
    cached = tmp_path / "shop-vocabulary" / f"{first.key}.json"
    cached.write_text("{not json")
    assert run_sync(read()) == first
    assert ShopVocabulary.model_validate_json(cached.read_text()) == first


@pytest.fixture(scope="module")
def recognizer() -> SphinxRecognizer:
    """Built once: loading the model and the grammar takes a second."""
    return offline_recognizer(catalog_vocabulary())


@pytest.mark.parametrize(
    ("spoken", "shown"),
    [
        ("Order one tiramisu and one lasagna al forno from Italian Bistro.",
         "Order 1 Tiramisu and 1 Lasagna al Forno from Italian Bistro."),
        ("I would like two beef doner and a lahmacun from Berlin Doner, pay cash.",
         "I would like 2 Beef Döner and 1 Lahmacun from Berlin Döner, pay cash."),
        ("Three hot chicken burrito from Taco Fiesta, deliver at seven pm.",
         "3 Hot Chicken Burrito from Taco Fiesta, deliver at 7pm."),
        ("Can you recommend something nice?", ""),
        ("My cat likes to sleep on the sofa.", ""),
    ],
)  # fmt: skip
def test_the_recogniser_hears_orders_and_only_orders(
    recognizer: SphinxRecognizer, spoken: str, shown: str, tmp_path: Path
) -> None:
    heard = recognizer.recognize(load_audio(spoken_wav(spoken, tmp_path / "s.wav")))
    assert heard.text == shown, heard.heard
    assert heard.understood == bool(shown)


def test_a_busy_kitchen_leaves_gaps_but_never_fails_the_reading(
    agent_browser: Browser, tmp_path: Path
) -> None:
    """Fault injection: a third of the shop's API calls answer 503 at seeded moments."""
    from demo_site import running_shop

    async def read(url: str) -> ShopVocabulary:
        session = await agent_browser.new_session(url, DEMO_SHOP)
        try:
            await session.open("/")
            return await shop_vocabulary(session, tmp_path)
        finally:
            await session.close()

    with running_shop(tmp_path / "flaky.db", clutter=0, seed=7, flaky=0.3) as flaky:
        vocabulary = run_sync(read(flaky.url))
    truth = names(catalog_vocabulary())
    got = names(vocabulary)
    assert set(got) == set(truth)
    assert all(dishes == truth[name] for name, dishes in got.items() if dishes)
    complete = all(got.values())
    assert (tmp_path / "shop-vocabulary" / f"{vocabulary.key}.json").exists() == complete


# Orders worded the way people say them (none of them is in benchmarks/voice.py's NATURAL set, which the
# grammar was developed on): a dish by the words that identify it on its menu, counts as words, "could
# I have … thank you". What is heard is read by the planner's goal reader as the order that was meant.
@pytest.mark.parametrize(
    ("spoken", "restaurant", "items"),
    [
        ("Could I have two spaghetti and a caesar salad from Italian Bistro, thank you.", "Italian Bistro",
         [("Caesar Salad", 1, []), ("Spaghetti Carbonara", 2, [])]),
        ("I'd like three dumplings and an egg fried rice from Dragon Wok please.", "Dragon Wok",
         [("Egg Fried Rice", 1, []), ("Pork Dumplings (6)", 3, [])]),
        ("Can I get a regular margherita and two cannoli from Italian Bistro Express.", "Italian Bistro Express",
         [("Cannoli", 2, []), ("Margherita Pizza", 1, ["Regular"])]),
        ("We would like a moussaka and two baklavas from Athens Grill, thanks.", "Athens Grill",
         [("Baklava", 2, []), ("Moussaka", 1, [])]),
        ("May I have a large milkshake and two cupcakes from Sweet Tooth Desserts.", "Sweet Tooth Desserts",
         [("Milkshake", 1, ["Large"]), ("Red Velvet Cupcake", 2, [])]),
    ],
)  # fmt: skip
def test_naturally_worded_orders_are_heard_as_the_order_meant(
    recognizer: SphinxRecognizer,
    spoken: str,
    restaurant: str,
    items: list[tuple[str, int, list[str]]],
    tmp_path: Path,
) -> None:
    heard = recognizer.recognize(load_audio(spoken_wav(spoken, tmp_path / "s.wav")))
    spec = read_spoken(heard.text, catalog_vocabulary()).spec
    assert spec.restaurant == restaurant, heard.heard
    assert sorted((i.dish, i.quantity, i.options) for i in spec.items) == items, heard.heard


def test_run_voice_in_orders_a_naturally_worded_goal(work: Path) -> None:
    recording = spoken_wav(
        "Could I get two lasagnas and a lemonade from Italian Bistro please.", work / "natural.wav"
    )
    db = work / "natural.db"
    done = webagent(
        "run", "--voice-in", str(recording), "--approve", "auto", "--db", str(db), "--json", *PROFILE, cwd=work
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["outcome"] == "ordered"
    (order,) = ShopDB(db).orders()
    assert sorted((i["dish_name"], i["quantity"]) for i in order["items"]) == [
        ("Lasagna al Forno", 2),
        ("Lemonade", 1),
    ]
    # The agent was handed the names as the shop shows them, not the words as said.
    assert (
        'Heard (pocketsphinx): "Could I get 2 Lasagna al Forno and 1 Lemonade from Italian Bistro, please."'
        in done.stderr
    )
