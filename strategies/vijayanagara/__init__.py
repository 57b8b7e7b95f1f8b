"""Vijayanagara's bots: the heuristic, its value model and lineups, and their fitting."""
