"""``python -m strategies.fitting``: refit everything fitted to the default bots (refit.py)."""

from strategies.fitting.refit import main

raise SystemExit(main())
