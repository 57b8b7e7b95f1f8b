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

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_province", tuple(k == PROVINCE for k in self.kinds))
        object.__setattr__(
            self, "province_ids", tuple(s for s, k in enumerate(self.kinds) if k == PROVINCE)
        )

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
