"""``python -m strategies.vijayanagara.fitting``: refit everything fitted to the default bots (refit.py)."""

from strategies.vijayanagara.fitting.refit import main

raise SystemExit(main())
