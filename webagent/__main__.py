"""``python -m webagent`` — the same as the ``webagent`` command."""

import sys

from webagent.cli.main import main

sys.exit(main())
