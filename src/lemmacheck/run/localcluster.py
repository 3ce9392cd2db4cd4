"""What the workers of the LocalCluster that ``lemmacheck run --dask local`` starts do beyond Dask's
defaults: less of Dask's own background work, and worker processes that behave as the local pool's
(the same hash seed, their own session, no finalisation at the end).
A scheduler given by address keeps its workers' own settings.  Imported only where dask.distributed
is (an optional extra)."""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import sys

from distributed import Nanny, WorkerPlugin

from .worker import HASH_SEED_ENV, pool_hash_seed

__all__ = ["LOCAL_CLUSTER_CONFIG", "LikeAPoolWorker", "PoolHashSeedNanny"]

#: Dask's own background work in the workers of the LocalCluster started here (a scheduler given by
#: address keeps its workers' own settings).  Its statistical profiler samples every thread's stack
#: every 10 ms, the event loop ticks every 20 ms and the system and memory monitors read /proc several
#: times a second: in a worker that spends its time in one claim thread, that was a fifth of its CPU
#: (py-spy), and none of it is needed for a run (a claim past its limit is found with call_stack,
#: which reads the running frames and not the profiler).
#: And its scheduler hands a worker its next claim when it is free, as the local pool does: at Dask's
#: default saturation (1.1) a one-thread worker holds a second claim queued behind the one it runs, so
#: at the end of a run one worker can sit idle while the other still has two claims to go.
LOCAL_CLUSTER_CONFIG = {
    "distributed.scheduler.worker-saturation": 1.0,
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.system-monitor.disk": False,
    "distributed.worker.memory.monitor-interval": "1s",
}


class PoolHashSeedNanny(Nanny):
    """A nanny whose worker process starts with the environment a local pool worker starts with: the
    run's own, and the pool's hash seed (:func:`lemmacheck.run.worker.pool_hash_seed`).

    Dask's nanny replaces an unset or ``0`` ``PYTHONHASHSEED`` by its own 6640 before it spawns a worker
    (and writes it into the client's ``os.environ`` on the way); SymPy's set orders follow the hash
    seed, and with them the work a certificate's counted budget allows (certify/work.py), so
    ``--certify --dask local`` certified otherwise than ``-j 2`` at the same seed.  It also sets
    ``MALLOC_TRIM_THRESHOLD_=65536`` (which also fixes glibc's mmap threshold at 128 kB, so every larger
    array of a sweep is a fresh mmap whose pages fault in again; Dask runs took 3.1 s of system time
    where the pool took 2.0) and one BLAS/OpenMP thread, where a pool worker has the run's.  A plugin
    runs too late for this: the interpreter and the allocator read these variables when the process
    starts."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        seed = pool_hash_seed()
        # Dask's own pre-spawn variables give way to the run's (absent from the run: absent here too);
        # the nanny sets them before it spawns the worker and again, from ``env``, once it runs
        for name in list(self.pre_spawn_env):
            self.pre_spawn_env.pop(name)
            self.env.pop(name, None)
            if name in os.environ:
                self.pre_spawn_env[name] = self.env[name] = os.environ[name]
        self.pre_spawn_env[HASH_SEED_ENV] = seed
        self.env[HASH_SEED_ENV] = seed


class LikeAPoolWorker(WorkerPlugin):
    """A worker plugin that makes each worker process of the LocalCluster what a worker of the local pool
    (:class:`lemmacheck.run.worker.Worker`) is, in the two ways that cost a run time:

    - its own session, as ``start_new_session=True`` gives a pool worker: Ctrl-C reaches only the run
      (which closes the cluster), and where the kernel shares the CPU among sessions (Linux's autogroup),
      each worker gets its own share, as a pool worker does, instead of splitting the run's one share
      with the client (on this loaded 2-core machine its claims took 4x the seconds of a pool worker's,
      for 1.16x the CPU);
    - once the worker has closed (its results sent, its nanny told), its process ends without the
      interpreter's finalisation.  Freeing the heap of SymPy, Hypothesis and the content, module by
      module, took longer than the 4 s the nanny waits on a loaded machine, so each worker was killed at
      the end of every run ("Worker process still alive after 4.0 seconds, killing"); the pool does not
      wait for its workers' finalisation either."""

    name = "lemmacheck-like-a-pool-worker"

    def setup(self, worker) -> None:
        with contextlib.suppress(OSError):  # already a session leader: nothing to leave
            os.setsid()
        atexit.register(_exit_now)  # atexit runs after the worker's threads are joined


def _exit_now() -> None:
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)
