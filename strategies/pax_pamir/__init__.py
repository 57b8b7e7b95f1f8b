"""Pax Pamir's bots: the weighted ``heuristic`` (its weights in ``weights.toml``)."""
