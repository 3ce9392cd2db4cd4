"""The processes a claim starts end with the claim.

A check that starts ``sleep 600`` and returns leaves a process holding the run's stderr (the worker's
is the caller's): ``lemmacheck run | cat``, a CI step or ``subprocess.run(capture_output=True)`` then
waits for it long after the run has exited.  Each worker is the leader of its own process group (its
own session, so Ctrl-C reaches only the run) and, on Linux, the *subreaper* of everything below it, so
a grandchild whose parent exits, or that moved to a group or session of its own, is still found among
the worker's descendants.  After each claim the worker kills every descendant (:func:`end_descendants`);
the parent kills the whole group when it kills a worker (:func:`kill_group`).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time

__all__ = ["adopt_orphans", "end_descendants", "kill_group"]

_PR_SET_CHILD_SUBREAPER = 36  # <linux/prctl.h>


def adopt_orphans() -> bool:
    """Make this process the subreaper of its descendants (Linux); False where that is not possible
    (then an orphan whose parent exited is reparented to init and found only through the group)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process this user can see (from /proc; empty without it)."""
    out: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue  # it ended while we looked
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'
        fields = stat[stat.rfind(b")") + 2 :].split()
        with contextlib.suppress(IndexError, ValueError):
            out[int(name)] = int(fields[1])
    return out


def _children(pid: int) -> list[int] | None:
    """The children of ``pid`` from /proc/<pid>/task/*/children (cheap); None where the kernel does not
    list them."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return [] if os.path.isdir("/proc/self/task") else None  # pid gone, or no /proc at all
    out: list[int] = []
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                out += [int(c) for c in fh.read().split()]
        except FileNotFoundError:
            if not os.path.isdir(f"/proc/{pid}/task/{tid}"):
                continue  # the thread ended while we looked
            return None  # the kernel keeps no children lists
        except OSError:
            continue
    return out


def _descendants(pid: int) -> list[int]:
    parents: dict[int, int] | None = None
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        children = _children(p) if parents is None else None
        if children is None:  # a full scan of /proc, once
            parents = parents or _parents()
            children = [c for c, pp in parents.items() if pp == p]
        found += children
        todo += children
    return found


def end_descendants() -> int:
    """Kill every process below this one and reap those that were its children; the number killed.
    Repeated until none is left (a process may fork while its siblings are killed)."""
    me, killed = os.getpid(), 0
    for _ in range(20):
        below = _descendants(me)
        if not below:
            break
        for pid in below:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        killed += len(below)
        _reap(0.5)
    _reap(0.0)
    return killed


def _reap(patience: float) -> None:
    """Collect the exit status of ended children (a zombie holds nothing, but a table entry)."""
    until = time.monotonic() + patience
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if time.monotonic() >= until:
                return
            time.sleep(0.01)


def kill_group(pgid: int) -> None:
    """SIGKILL the process group ``pgid`` (a worker and whatever it started that stayed in its group)."""
    with contextlib.suppress(OSError):
        os.killpg(pgid, signal.SIGKILL)
