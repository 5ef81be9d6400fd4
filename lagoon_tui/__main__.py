"""Lets `python -m lagoon_tui` do what the `lagoon` command does."""

import sys

from lagoon_tui.cli import main

sys.exit(main())
