"""One cold `lemmacheck run`-like process for the speed benchmarks (the CLI's own wiring may differ):
``python benchmarks/_runner.py IDS_JSON JOBS CACHE|- index|discover`` prints the seconds it took
after the interpreter started and a JSON line of verdicts."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

T0 = time.perf_counter()


def main() -> None:
    ids_file, jobs, cache_path, loading = sys.argv[1:5]
    from lemmacheck.project.discovery import discover, find_root
    from lemmacheck.run.execution import execute
    from lemmacheck.search.profile import QUICK

    root = find_root()
    ids = json.loads(Path(ids_file).read_text())
    if loading == "discover":  # what `lemmacheck run -k` does today: import the whole catalogue first
        discover(root)
    cache = None
    if cache_path != "-":
        from lemmacheck.run.cache import ResultCache

        cache = ResultCache(root, path=Path(cache_path))
    results = execute(ids, QUICK.with_seed(1), jobs=int(jobs), cache=cache, root=root)
    print(
        json.dumps(
            {
                "seconds": time.perf_counter() - T0,
                "verdicts": {r.id: r.verdict.value for r in results},
                "cached": sum(1 for r in results if getattr(r, "cached", False)),
            }
        )
    )


if __name__ == "__main__":
    main()
