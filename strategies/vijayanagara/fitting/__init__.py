"""Tuning and fitting the bots: the learned choice (``choice_fit``), an end-game search's
prior (``prior_fit``) and the heuristic's Event table (``event_table``), each a command
(``python -m strategies.vijayanagara.fitting.NAME``) that plays games and writes a data file the policy
or a lineup reads. No module that plays a game imports this package (tests/test_layout.py)."""
