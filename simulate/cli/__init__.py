"""``vsim``: the command line, thin: each command parses, calls one layer, prints.

- ``app``: the group, one-line errors and exit codes;
- ``run``: ``vsim run``; ``ladder``: ``vsim ladder``; ``strength``: ``vsim strength``;
  ``tune_bots``: ``vsim tune-bots``; ``tune``: ``vsim tune`` (variant search); ``analysis``:
  ``report``, ``compare``, ``plan``;
- ``tools``: ``replay``, ``strategies``, ``variants``, ``soak``.
"""

from simulate.cli import ladder as _ladder
from simulate.cli import run as _run
from simulate.cli import strength as _strength
from simulate.cli import tools as _tools
from simulate.cli import tune as _tune
from simulate.cli import tune_bots as _tune_bots
from simulate.cli.analysis import register
from simulate.cli.app import InputError, cli, main

register(cli)
del _ladder, _run, _strength, _tools, _tune, _tune_bots  # imported for the commands they register

__all__ = ["InputError", "cli", "main"]

if __name__ == "__main__":
    main()
