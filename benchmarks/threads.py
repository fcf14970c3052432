"""How many threads the local model should think with: llama.cpp's own timings on this machine.

    python benchmarks/threads.py [--model 1.5b] [--rounds 3] [--json PATH]

For each setting — generation threads × prompt-evaluation threads × polling — the local model is served
afresh and given the same turn a run gives it (the agent's system prompt, a goal and the shop's opening,
about 900 tokens, started by a new line so nothing is reused from the cache) and asked for a short reply,
``--rounds`` times. llama.cpp's own ``timings`` say how fast the prompt was evaluated and the reply
generated (tokens a second), and the wall time of the call is kept beside them. Each setting is measured
twice: with the machine otherwise idle (as in a run, where the browser waits while the model thinks) and
with one core kept busy by another process (as when runs or the browser compete), since llama.cpp's
threads spin while they wait for each other and a descheduled one stalls them all.

The baseline is the setting the project used before (one thread for both, polling 50), measured in the same
run; every row prints its ratio to it. Benchmarks are not tests: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import GOAL, log
from webagent.agent.prompt import system_prompt
from webagent.llm import local

SETTINGS = [  # (generation threads, prompt-evaluation threads, poll)
    (1, 1, 50),
    (1, 2, 50),
    (2, 2, 50),
    (1, 2, 0),
    (2, 2, 0),
]
OPENING = (
    'The shop is open. Restaurants: "Italian Bistro" (Italian), "Sushi House" (Japanese), "Taco Fiesta" '
    '(Mexican), "Pizza Planet" (Pizza), "Golden Dragon" (Chinese), "Curry Palace" (Indian), "Burger Barn" '
    '(American), "Pho Saigon" (Vietnamese), "Green Garden" (Vegetarian), "Le Petit Bistro" (French).\n'
    "Page: restaurant list · cart empty\nNext: search_restaurants, open_restaurant"
)


def _burn(stop: Any) -> None:
    while not stop.is_set():
        sum(range(10_000))


def measure(path: Path, gen: int, batch: int, poll: int, rounds: int, busy: bool) -> dict[str, Any]:
    """One setting's prompt and generation speeds (medians over ``rounds``), idle or with a core busy."""
    import openai

    server = local.serve(path, threads=gen, batch_threads=batch, poll=poll)
    client = openai.OpenAI(base_url=server.base_url, api_key="local", max_retries=0, timeout=600)
    stop = multiprocessing.Event()
    burner = multiprocessing.Process(target=_burn, args=(stop,), daemon=True) if busy else None
    if burner is not None:
        burner.start()
    prompt, generated, walls, tokens = [], [], [], []
    try:
        for round_ in range(rounds):
            messages = [
                {"role": "system", "content": f"Run {time.time_ns()}-{round_}.\n{system_prompt(GOAL)}"},
                {"role": "user", "content": f"{GOAL}\n\n{OPENING}"},
            ]
            started = time.monotonic()
            reply = client.chat.completions.create(
                model=server.model,
                messages=messages,
                max_tokens=32,
                temperature=0,  # type: ignore[arg-type]
            )
            walls.append(time.monotonic() - started)
            timings = (reply.model_extra or {}).get("timings") or {}
            prompt.append(float(timings.get("prompt_per_second") or 0))
            generated.append(float(timings.get("predicted_per_second") or 0))
            tokens.append(int(timings.get("prompt_n") or 0))
    finally:
        stop.set()
        if burner is not None:
            burner.join()
        server.stop()
    return {
        "gen_threads": gen,
        "batch_threads": batch,
        "poll": poll,
        "busy_core": busy,
        "prompt_tokens": statistics.median(tokens),
        "prompt_tok_s": round(statistics.median(prompt), 1),
        "gen_tok_s": round(statistics.median(generated), 1),
        "wall_s": round(statistics.median(walls), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="1.5b", choices=sorted(local.LOCAL_MODELS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    path = local.weights(args.model)
    rows = []
    for busy in (False, True):
        for gen, batch, poll in SETTINGS:
            log(
                f"{args.model}: {gen} generating, {batch} evaluating, poll {poll}, {'a core busy' if busy else 'idle'}"
            )
            rows.append(measure(path, gen, batch, poll, args.rounds, busy))
    print(
        f"## Threads for the local {args.model} ({multiprocessing.cpu_count()} cores, {time.strftime('%Y-%m-%d')})\n"
    )
    print(
        "| machine | generate | evaluate | poll | prompt tok/s | × | generate tok/s | × | wall s (≈900-token turn) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        base = next(
            r
            for r in rows
            if r["busy_core"] == row["busy_core"]
            and r["gen_threads"] == 1
            and r["batch_threads"] == 1
            and r["poll"] == 50
        )
        ratio_p = row["prompt_tok_s"] / base["prompt_tok_s"] if base["prompt_tok_s"] else 0
        ratio_g = row["gen_tok_s"] / base["gen_tok_s"] if base["gen_tok_s"] else 0
        print(
            f"| {'a core busy' if row['busy_core'] else 'idle'} | {row['gen_threads']} | {row['batch_threads']} | "
            f"{row['poll']} | {row['prompt_tok_s']} | {ratio_p:.2f} | {row['gen_tok_s']} | {ratio_g:.2f} | {row['wall_s']} |"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
