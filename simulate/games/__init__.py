"""The game protocol (``protocol``) and the installed games (``registry``): the one place the
generic layers learn which game they play (docs/architecture.md)."""

from simulate.games.protocol import Column, Game, Outcome, Section
from simulate.games.registry import DEFAULT, UnknownGame, get, names

__all__ = ["DEFAULT", "Column", "Game", "Outcome", "Section", "UnknownGame", "get", "names"]
