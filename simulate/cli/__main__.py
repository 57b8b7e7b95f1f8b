"""``python -m simulate.cli``: the ``vsim`` command."""

from simulate.cli import main

main()
