"""What the content computes at import, done once (issue 35): every process that imports a module (the
index's interpreter and a worker) pays its module-level SymPy, part of it on the run's serial start.

Each test runs the import in a fresh interpreter (the registry and SymPy's cache start empty, as in a
worker) and checks both that the work is not repeated and that the chains declared are, expression for
expression, those of the form that repeated it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_COUNT_SUMS = r"""
import collections, json, sys
import sympy as sp
evaluated = collections.Counter()
plain = sp.Sum.doit
def counted(self, **hints):
    evaluated[sp.srepr(self)] += 1
    return plain(self, **hints)
sp.Sum.doit = counted
import importlib
importlib.import_module(sys.argv[1])
from lemmacheck import REGISTRY
# a derivation whose claim is declared in a module not imported here waits in the pending list
held = {c.id: c.derivation for c in REGISTRY if c.derivation is not None} | REGISTRY._pending_derivations
chains = {cid: [sp.srepr(e) for e in d.exprs] for cid, d in held.items() if d.module == sys.argv[1]}
print(json.dumps({"evaluated": evaluated, "chains": chains}))
"""


def _in_fresh_interpreter(code: str, *args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
    out = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.splitlines()[-1])


_EMA_AS_IT_WAS = r"""
import json
import sympy as sp
beta_open = 1 / (1 + sp.Symbol("kappa", positive=True))
n = sp.Symbol("n", integer=True, positive=True)
i = sp.Symbol("i", integer=True, positive=True)
mu = sp.Symbol("mu_g", real=True)
_w = (1 - beta_open) * beta_open ** (n - i)
first = sp.Sum(_w * mu, (i, 1, n)).doit()
chains = {
    "ema.expectation_002": [first, (mu * sp.Sum(_w, (i, 1, n))).doit()],
    "ema.mu_estimator_002": [(mu * sp.Sum(_w, (i, 1, n))).doit() / sp.Sum(_w, (i, 1, n)).doit(), mu],
}
print(json.dumps({k: [sp.srepr(e) for e in v] for k, v in chains.items()}))
"""


def test_ema_evaluates_each_sum_once_and_declares_the_same_chains():
    now = _in_fresh_interpreter(_COUNT_SUMS, "derivations.optim.ema")
    twice = {s: k for s, k in now["evaluated"].items() if k > 1}
    assert not twice, f"sums evaluated more than once at import of derivations/optim/ema.py: {twice}"
    before = _in_fresh_interpreter(_EMA_AS_IT_WAS)
    for cid, exprs in before.items():
        assert now["chains"][cid] == exprs, f"{cid}: the chain differs from the one each sum evaluated apart"
