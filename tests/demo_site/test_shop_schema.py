"""An outside fuzzer against the real shop: does it answer as its published OpenAPI schema says?

schemathesis reads `/openapi.json` from a running shop and sends, per operation, requests the schema
allows (which must not be refused with a 422 or answered with a 5xx) and requests it forbids (which
must be refused with a 4xx), checking every answer's status code, content type and body against the
schema. Fixed seed and a fixed number of examples, so a run is repeatable and takes well under a
minute; the first finding per operation and mode is reported with schemathesis's own `curl` line.
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path

import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.errors import FailureGroup

from demo_site import running_shop

SEED = 20_261
EXAMPLES = 20


def fuzz(operation: schemathesis.APIOperation, mode: GenerationMode, http: requests.Session) -> list[str]:
    """Run one operation's cases in one mode; the findings as schemathesis words them."""
    findings: list[str] = []

    @given(case=operation.as_strategy(mode))
    @seed(SEED)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        # Every finding is collected rather than raised, so there is nothing to shrink.
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def check(case: schemathesis.Case) -> None:
        if findings:
            return
        try:
            case.call_and_validate(session=http)
        except (AssertionError, FailureGroup) as failure:  # one failed check, or several
            findings.append(f"{operation.label} ({mode.value}): {failure}")

    # Without parameters there is nothing negative to send (e.g. GET /api/cart).
    with suppress(Unsatisfiable):
        check()
    return findings


def test_the_shop_answers_as_its_openapi_schema_says(tmp_path: Path) -> None:
    with running_shop(db_path=tmp_path / "shop.db") as shop, requests.Session() as http:
        schema = schemathesis.openapi.from_url(f"{shop.url}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 12, [operation.label for operation in operations]
        findings = [
            finding
            for operation in operations
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
            for finding in fuzz(operation, mode, http)
        ]
    assert not findings, f"{len(findings)} finding(s):\n\n" + "\n\n".join(findings)
