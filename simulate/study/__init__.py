"""Studies: many games, played in parallel and reproducibly, kept as a Parquet dataset.

The layer between a game (``simulate.games``: its ``play``) and the analysis (``simulate.analysis``):

- ``specs``: a study (games, master seed, strategies, variants), checked once;
- ``batch``: the one batch API, ``play(batches) -> results``, that every command uses;
- ``backends``: loky processes, Dask or Ray;
- ``dataset``, ``records``, ``manifest``: Parquet shards, their schemas, the provenance;
- ``runs``: a run into an output folder (lock, manifest, resume) on top of ``batch``;
- ``replay`` and ``soak``: one game again, and invariants over many.

Importing this package loads no dataframe or plotting library.
"""

from simulate.study.backends import BACKENDS, Backend, default_jobs, open_backend
from simulate.study.batch import Batch, BatchResult, Chunk, batches, play
from simulate.study.errors import RunError
from simulate.study.specs import DEFAULT_GAMES, Study, parse_strategies

__all__ = [
    "BACKENDS",
    "DEFAULT_GAMES",
    "Backend",
    "Batch",
    "BatchResult",
    "Chunk",
    "RunError",
    "Study",
    "batches",
    "default_jobs",
    "open_backend",
    "parse_strategies",
    "play",
]
