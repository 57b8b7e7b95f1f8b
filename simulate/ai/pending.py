"""What a stepper waits for: ``pending`` is ``(DECIDE, seat, Decision)``, ``(OVER, -1, None)``
or a chance node ``(kind, -1, payload)`` of any other kind (``SEED``: the game's seed, drawn
among ``payload`` seeds; a game's own stepper names its own)."""

from __future__ import annotations

DECIDE, OVER, SEED = "decide", "over", "seed"
