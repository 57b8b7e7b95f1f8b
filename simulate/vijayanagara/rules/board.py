"""The compiled map (1.3): integer space ids, kinds, Prosperity, adjacency lists and masks."""

from __future__ import annotations

from dataclasses import dataclass

PROVINCE, DELHI, MONGOL_REGION = "province", "delhi", "mongol_region"


@dataclass(frozen=True, slots=True)
class Board:
    """Spaces by integer id; adjacency is symmetric and includes vertex contact (1.3.5)."""

    names: tuple[str, ...]
    kinds: tuple[str, ...]
    prosperity: tuple[int, ...]  # 0 for non-Provinces
    adjacent: tuple[tuple[int, ...], ...]
    adjacent_mask: tuple[int, ...]
    confidence: tuple[str, ...]  # of each space's Prosperity
    edge_confidence: dict[tuple[str, str], str]
    province_ids: tuple[int, ...] = ()
    is_province: tuple[bool, ...] = ()
    distance: tuple[tuple[int, ...], ...] = ()  # steps from space to space (99: unreachable)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_province", tuple([k == PROVINCE for k in self.kinds]))
        object.__setattr__(
            self, "province_ids", tuple([s for s, k in enumerate(self.kinds) if k == PROVINCE])
        )
        object.__setattr__(self, "distance", tuple([self._steps_from(s) for s in range(self.n)]))

    def _steps_from(self, s: int) -> tuple[int, ...]:
        """Adjacency steps from ``s`` to every space, breadth first (1.3.5)."""
        dist = [99] * self.n
        dist[s] = 0
        frontier = [s]
        while frontier:
            nxt = []
            for a in frontier:
                for b in self.adjacent[a]:
                    if dist[b] == 99:
                        dist[b] = dist[a] + 1
                        nxt.append(b)
            frontier = nxt
        return tuple(dist)

    @property
    def n(self) -> int:
        return len(self.names)

    def id(self, name: str) -> int:
        return self.names.index(name)

    @property
    def provinces(self) -> tuple[int, ...]:
        return self.province_ids

    @property
    def delhi(self) -> int:
        return self.kinds.index(DELHI)

    def is_adjacent(self, a: int, b: int) -> bool:
        return bool(self.adjacent_mask[a] >> b & 1)
