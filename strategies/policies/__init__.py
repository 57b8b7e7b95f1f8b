"""The cheap policies: ``random`` (uniform over the offered options) and the ``heuristic``
(a rule-based bot per Faction, its weights in TOML). Each decides every decision alone; a
lineup (``strategies/vijayanagara/lineups/``) may let search choose some of them."""
