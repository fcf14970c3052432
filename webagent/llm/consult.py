"""`LocalConsultant`: narrow questions answered by a small local model, held to the labels given.

The offline planner may put two kinds of question to it before asking the person (webagent/planner/
consult.py): which parts of a message name food to order, and which buttons of a popup close it without
agreeing to anything. Each option is labelled with one of two labels, and the reply is forced by a JSON
schema (llama.cpp's constrained decoding): an object with exactly the options as keys and only the two
labels as values, so the model cannot name a dish or a button that was not offered. A model that fails,
times out or answers nothing usable gets the cautious answer: the second label for every option (no
word dropped from the questions to the person, no button pressed).

Measured with the 1.5B on six messages written for it (docs/local-model.md#consulted): labelling each part
was right 6/6; asked to pick the parts of the order from a list, it picked the one option it was given.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from openai import OpenAIError

from webagent.errors import LocalModelError

__all__ = ["LocalConsultant", "label_schema"]

SYSTEM = "You help an assistant that orders food. You label what you are shown. Reply with JSON only."


def label_schema(options: Sequence[str], labels: tuple[str, str]) -> dict[str, Any]:
    """The JSON schema a reply must match: every option a key, every value one of ``labels``."""
    return {
        "type": "object",
        "properties": {option: {"type": "string", "enum": list(labels)} for option in options},
        "required": list(options),
        "additionalProperties": False,
    }


class LocalConsultant:
    """Answers the planner's narrow questions with a model on llama.cpp's server (started on first use).

    ``client`` is an `openai.OpenAI` (or anything with its ``chat.completions.create``) and ``model`` the
    name to send; without them the local model ``key`` (webagent/llm/local.py) is served in this process at
    the first question, so a run that never needs to consult never loads it.
    """

    def __init__(self, key: str | None = None, *, client: Any = None, model: str | None = None) -> None:
        self.key = key
        self._client = client
        self._model = model

    def __repr__(self) -> str:
        return f"LocalConsultant({self.key or self._model!r})"

    def _connect(self) -> tuple[Any, str]:
        if self._client is None or self._model is None:
            from openai import OpenAI

            from webagent.llm import local  # llama.cpp is loaded only when a question is first put

            server = local.serve_known(self.key or local.DEFAULT_LOCAL)
            self._client = OpenAI(base_url=server.base_url, api_key="local", timeout=120.0, max_retries=1)
            self._model = server.model
        return self._client, self._model

    def classify(
        self, question: str, context: str, options: Sequence[str], labels: tuple[str, str]
    ) -> dict[str, str]:
        cautious = {option: labels[1] for option in options}
        if not options:
            return {}
        listed = "\n".join(f"- {option!r}" for option in options)
        prompt = f"{question}\n\n{context}\n\nLabel each as {labels[0]!r} or {labels[1]!r}:\n{listed}"
        try:
            client, model = self._connect()
            reply = client.chat.completions.create(
                model=model,
                messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}],
                response_format={
                    "type": "json_schema",
                    "json_schema": {
                        "name": "labels",
                        "schema": label_schema(options, labels),
                        "strict": True,
                    },
                },
                temperature=0.0,
                max_tokens=40 + 24 * len(options),
            )
            data = json.loads(reply.choices[0].message.content or "")  # IndexError: no choices
        except (OpenAIError, LocalModelError, json.JSONDecodeError, IndexError):
            return cautious  # a consultation that fails gets the cautious answer; the run goes on
        if not isinstance(data, dict):
            return cautious
        return {option: data[option] if data.get(option) in labels else labels[1] for option in options}
