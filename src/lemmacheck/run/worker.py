"""A worker process of the run: a plain interpreter that imports the content it is told to, checks one
claim at a time under its time limit (:func:`lemmacheck.run.timelimit.run_one`) and sends each result
back over a length-prefixed pickle pipe.  :mod:`.execution` keeps a pool of them."""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
import math
import os
import pickle
import pkgutil
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

from ..search.profile import Profile
from .claimrun import blank_result, unknown_result
from .descendants import adopt_orphans, end_descendants, kill_group
from .interpreter_state import restore, snapshot
from .results import ClaimResult
from .timelimit import run_one

__all__ = ["Worker", "start_worker", "HASH_SEED_ENV", "pool_hash_seed", "warm_up", "keep_out_of_collections"]

HASH_SEED_ENV = "PYTHONHASHSEED"

# After the in-process alarm, how long a worker may take to report before it is killed.
_GRACE = 5.0
# A worker's first claim may wait for its imports (engine, SymPy, the content modules).
_STARTUP_ALLOWANCE = 60.0


def _send(stream, message) -> None:
    payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    data = memoryview(struct.pack("!Q", len(payload)) + payload)
    while data:  # an unbuffered pipe may take fewer bytes per write
        written = stream.write(data)
        data = data[written if written is not None else len(data) :]
    stream.flush()


def _read_exact(stream, size: int) -> bytes:
    """Exactly ``size`` bytes (a pipe may deliver fewer per read); EOFError when the writer is gone."""
    chunks, missing = [], size
    while missing:
        chunk = stream.read(missing)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)


def _receive(stream):
    """One message.  The parent reads its workers' pipes unbuffered: a buffered reader could swallow
    the next message while ``wait`` watches the (then empty) pipe, and the worker would look hung."""
    (size,) = struct.unpack("!Q", _read_exact(stream, 8))
    return pickle.loads(_read_exact(stream, size))


def _worker_main() -> None:
    """A worker process: ``python -c '...; _worker_main()' ROOT``.  It reads ``(claim id, profile,
    timeout, modules)`` messages on stdin, imports ``modules`` (those the parent's index says declare
    the claim), and answers ``("start", id, blank result)`` then ``("done", id, result)`` on the stdout
    it was given; content that prints goes to stderr, never into the protocol."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C stops
    _exit_with_parent()
    adopt_orphans()
    protocol_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    requests = os.fdopen(os.dup(0), "rb")
    nothing = os.open(os.devnull, os.O_RDONLY)  # content reading stdin must not eat the requests
    os.dup2(nothing, 0)
    os.close(nothing)
    warm_up()
    keep_out_of_collections()
    from ..model.claim import REGISTRY
    from ..project.index import import_modules

    root = Path(sys.argv[1])
    pristine = snapshot()  # before any content: what each claim starts from
    while True:
        try:
            claim_id, profile, timeout, modules = _receive(requests)
        except EOFError:
            return
        try:
            restore(pristine)  # what the last claim left (cwd, env, precision...) is gone before the next
            _trust_index(root)
            known = len(sys.modules)
            import_modules(root, modules)  # every time: already imported ones cost a dict lookup
            restore(pristine)  # and what a module set at import
            if len(sys.modules) != known:
                keep_out_of_collections()
            if claim_id in REGISTRY:
                _send(protocol_out, ("start", claim_id, blank_result(REGISTRY[claim_id], profile)))
            result = run_one(claim_id, profile, timeout, root)
        except BaseException as exc:  # the worker's own machinery broke: report it, keep serving
            tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-3:])
            result = unknown_result(
                claim_id, profile, f"claim {claim_id!r}: worker failed: {type(exc).__name__}: {exc}\n{tb}"
            )
        end_descendants()  # before the answer: when the run ends, nothing the claim started holds its pipes
        _send(protocol_out, ("done", claim_id, result))


@functools.cache  # once per process, at the first claim: the parent has written the index by then
def _trust_index(root: Path) -> None:
    """Skip converting again, at declaration, the statements the content index's interpreter converted."""
    from ..model.fields import known_to_convert
    from ..project.index import known_statements

    known_to_convert(known_statements(root))


@functools.cache  # once per process: a Dask worker calls it before each claim
def warm_up() -> None:
    """Import every engine module a claim may import lazily, before any claim: a claim's time limit
    counts from when its check starts, never from the worker compiling or importing the engine (a 2 s
    limit on an instant claim used to fire on a loaded machine).  A pool worker and a Dask worker alike."""
    import lemmacheck.run.claimrun  # noqa: F401

    for package in ("kinds", "settling", "search", "xp", "certify"):
        parent = importlib.import_module(f"lemmacheck.{package}")
        for info in pkgutil.walk_packages(parent.__path__, f"{parent.__name__}."):
            importlib.import_module(info.name)


def keep_out_of_collections() -> None:
    """Move what is alive now (the engine, the libraries, the content's modules and their SymPy
    expressions) out of the cyclic collector's reach: they live as long as the worker, yet every full
    collection a claim triggers walked them all again (about 150,000 objects once the content is
    imported; 1.31 s of 25.3 s of CPU over 87 claims, 0.63 s when frozen).  The collection first means
    only live objects are frozen, never a claim's leftover garbage; it walks only what is not frozen yet."""
    gc.collect()
    gc.freeze()


def _exit_with_parent() -> None:
    """End this process when its parent is gone (the run was killed outright): a claim busy in a loop
    that swallows every exception would otherwise run on forever in its own session."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="lemmacheck-orphan-watch").start()


def pool_hash_seed() -> str:
    """The hash seed every worker process of a run starts with, the pool's and a LocalCluster's alike:
    the run's own ``PYTHONHASHSEED`` if it has one, else 0.  Fixed, so that set orders (SymPy's among
    them) do not vary from one worker to the next and certification's counted budgets of work
    (certify/work.py) end at the same place."""
    return os.environ.get(HASH_SEED_ENV) or "0"


class Worker:
    """One worker process.  A plain ``subprocess`` (not multiprocessing): it never re-imports the
    caller's ``__main__``, and it runs in its own session so Ctrl-C reaches only the parent."""

    def __init__(self, root: Path):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in [str(root), *sys.path] if p))
        env[HASH_SEED_ENV] = pool_hash_seed()
        cmd = [
            sys.executable,
            "-c",
            "from lemmacheck.run.worker import _worker_main; _worker_main()",
            str(root),
        ]
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=root,
            start_new_session=True,
            bufsize=0,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None  # both are pipes
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        self.claim_id: str | None = None
        self.template: ClaimResult | None = None
        self.started = 0.0
        self.deadline = math.inf
        self.lane = 0  # the run of claims of the pool it keeps to (execution._Lanes)

    def give(self, claim_id: str, profile: Profile, limit: float | None, modules: list[str]) -> None:
        self.claim_id, self.template, self.started = claim_id, None, time.monotonic()
        self.deadline = self.started + (limit + _GRACE + _STARTUP_ALLOWANCE if limit else math.inf)
        _send(self.stdin, (claim_id, profile, limit, modules))

    def answered(self, limit: float | None):
        """The worker's next message; a "start" moves the deadline to the claim's own clock."""
        kind, claim_id, payload = _receive(self.stdout)
        if kind == "start":
            self.template, self.started = payload, time.monotonic()
            self.deadline = self.started + limit + _GRACE if limit else math.inf
        return kind, payload

    def kill(self) -> None:
        if self.proc.returncode is None:  # not reaped, so the pid is still this worker's group
            kill_group(self.proc.pid)  # the worker leads its group: what its claim started goes with it
        with contextlib.suppress(OSError):
            self.proc.kill()
        self.proc.wait()
        self._close()

    def stop(self) -> None:
        """Let the worker exit (EOF on its stdin) without waiting for its interpreter to shut down: a
        thread reaps it, and kills it if it has not gone within a few seconds."""
        with contextlib.suppress(OSError):
            self.stdin.close()
        threading.Thread(target=self._reap, daemon=True, name="lemmacheck-reaper").start()

    def _reap(self) -> None:
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.kill()
        self._close()

    def _close(self) -> None:
        for stream in (self.stdin, self.stdout):
            with contextlib.suppress(OSError):
                stream.close()


def start_worker(root: Path) -> Worker:
    """A worker process started now, importing the engine while nothing is asked of it; hand it to
    :func:`execute` as ``warm=[...]`` to save its start-up later (``watch`` keeps one ready)."""
    return Worker(Path(root).resolve())
