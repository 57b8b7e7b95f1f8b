"""Where games run: local processes (loky), a Dask cluster or Ray, behind one interface.

``open_backend`` connects (or starts) a backend and yields a :class:`Backend`; ``execute``
runs a function over tasks on it and yields the results as they finish. Nothing here knows
what a game is: ``simulate.study.batch`` hands it the tasks.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from simulate.study.errors import RunError
from simulate.study.errors import one_line as _one_line

BACKENDS = ("loky", "dask", "ray")
SCHEDULER_TIMEOUT = 10  # seconds to reach a --scheduler before giving up

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass
class Backend:
    """An opened execution backend: its joblib config and how many workers it has."""

    name: str
    workers: int
    joblib_backend: str
    joblib_params: dict[str, Any] = field(default_factory=dict)
    n_jobs: int = 1
    generator: bool = True  # supports return_as="generator_unordered"
    description: str = ""


@contextlib.contextmanager
def open_backend(name: str, jobs: int, scheduler: str | None = None) -> Iterator[Backend]:
    """Connect to (or start) the backend; RunError (one line) if it cannot be used.

    ``loky``: local processes. ``dask``: joblib's Dask backend on the cluster whose scheduler
    is at ``scheduler`` (e.g. ``tcp://10.0.0.5:8786``), or on a local cluster of ``jobs``
    worker processes. ``ray``: Ray's joblib backend on the cluster at ``scheduler`` (e.g.
    ``ray://head:10001`` or ``auto``), or a local Ray.
    """
    if name not in BACKENDS:
        raise RunError(f"unknown backend {name!r} (expected {', '.join(BACKENDS)})")
    if jobs < 1:
        raise RunError(f"--jobs must be a positive integer, got {jobs}")
    if name == "loky":
        if scheduler:
            raise RunError("--scheduler needs --backend dask or ray")
        yield Backend(
            "loky",
            jobs,
            "loky",
            n_jobs=jobs,
            description=f"loky, {jobs} process{'es' if jobs > 1 else ''}",
        )
    elif name == "dask":
        with _dask(jobs, scheduler) as backend:
            yield backend
    else:
        with _ray(jobs, scheduler) as backend:
            yield backend


@contextlib.contextmanager
def _dask(jobs: int, scheduler: str | None) -> Iterator[Backend]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RunError("the dask backend needs dask[distributed] installed") from None
    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT, set_as_default=False)
        else:
            cluster = LocalCluster(
                n_workers=jobs,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=40,
            )
            client = Client(cluster, set_as_default=False)
    except Exception as exc:
        if cluster is not None:
            cluster.close()
        where = f"scheduler {scheduler}" if scheduler else "a local Dask cluster"
        raise RunError(f"cannot reach {where}: {_one_line(exc) or type(exc).__name__}") from None
    try:
        workers = max(1, sum(client.nthreads().values()))
        where = scheduler or "local cluster"
        yield Backend(
            "dask",
            workers,
            "dask",
            {"client": client},
            n_jobs=-1,
            description=f"dask ({where}), {workers} worker threads",
        )
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


@contextlib.contextmanager
def _ray(jobs: int, scheduler: str | None) -> Iterator[Backend]:
    try:
        import ray
        from ray.util.joblib import register_ray
    except ImportError:
        raise RunError("the ray backend needs Ray: pip install 'vijayanagara-sim[ray]'") from None
    try:
        if scheduler:
            ray.init(address=scheduler, ignore_reinit_error=True, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs, ignore_reinit_error=True, log_to_driver=False)
    except Exception as exc:
        where = f"Ray cluster {scheduler}" if scheduler else "a local Ray"
        raise RunError(f"cannot start {where}: {_one_line(exc)}") from None
    try:
        register_ray()
        workers = max(1, int(ray.cluster_resources().get("CPU", jobs)))
        yield Backend(
            "ray",
            workers,
            "ray",
            n_jobs=workers if scheduler else jobs,
            generator=False,
            description=f"ray ({scheduler or 'local'}), {workers} CPUs",
        )
    finally:
        ray.shutdown()


def execute(
    backend: Backend,
    tasks: Sequence[T],
    in_process: Callable[[T], R],
    in_worker: Callable[[T], R] | None = None,
) -> Iterator[R]:
    """Run ``in_worker`` (default ``in_process``) over ``tasks`` on the backend, yielding the
    results as they finish; with one local worker, ``in_process`` runs here (no pool)."""
    from joblib import Parallel, delayed, parallel_config

    if not tasks:
        return
    remote = in_worker or in_process
    if backend.n_jobs == 1 and backend.name == "loky":
        for task in tasks:  # in-process: no pool to start for one worker
            yield in_process(task)
        return
    with parallel_config(backend=backend.joblib_backend, **backend.joblib_params):
        if backend.generator:
            parallel = Parallel(
                n_jobs=backend.n_jobs,
                return_as="generator_unordered",
                batch_size=1,
                pre_dispatch="2*n_jobs",
            )
            yield from parallel(delayed(remote)(t) for t in tasks)
        else:  # waves of a few tasks per worker, so that results land as the run goes
            wave = max(1, 2 * backend.workers)
            for i in range(0, len(tasks), wave):
                parallel = Parallel(n_jobs=backend.n_jobs, batch_size=1)
                yield from parallel(delayed(remote)(t) for t in tasks[i : i + wave])
