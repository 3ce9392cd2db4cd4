"""``lemmacheck list`` returns non-zero when the catalogue it lists is broken, as ``pytest --collect-only``
does on a collection error: it printed "DECLARATION ERROR …" and exited 0 while ``run`` exited 1, so a
script that lists the catalogue read a broken one as whole (audit of issue 38)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from lemmacheck.cli.exitcodes import ExitCode
from planted_project import make_project

GOOD = """
from lemmacheck import value

value("{pkg}.good", computed=lambda: 2, stated=2, **META)
"""

BROKEN = {
    # one malformed declaration, refused where it is declared
    "declaration": (GOOD + 'value("{pkg}.bad", computed=lambda: 2, stated=2, uses="{pkg}.good", **META)\n'),
    # a problem only the complete catalogue shows: a premise no module declares
    "link": GOOD + 'value("{pkg}.bad", computed=lambda: 2, stated=2, uses=("{pkg}.nowhere",), **META)\n',
}


def _lemmacheck(root, *args: str) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "lemmacheck.cli", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard, not a measurement
        check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr


def test_list_of_a_clean_project_exits_0(tmp_path):
    pkg = make_project(tmp_path, {"mod": GOOD})
    code, out = _lemmacheck(tmp_path, "list")
    assert code == ExitCode.OK, out
    assert f"{pkg}.good" in out and "ERROR" not in out, out


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_list_exits_as_run_does_when_a_declaration_is_bad_and_names_the_claim(tmp_path, broken):
    pkg = make_project(tmp_path, {"mod": BROKEN[broken]})
    code, out = _lemmacheck(tmp_path, "list")
    assert code == ExitCode.TESTS_FAILED, out
    (line,) = [ln for ln in out.splitlines() if ln.startswith("DECLARATION ERROR")]
    assert f"{pkg}.bad" in line, out
    assert f"{pkg}.good" in out, out  # the rest of the catalogue is still listed
    run_code, run_out = _lemmacheck(tmp_path, "run", "-j", "1", "--out", "rep")
    assert run_code == code, run_out


def test_list_exits_as_run_does_when_a_module_fails_to_import(tmp_path):
    make_project(tmp_path, {"mod": GOOD, "broken": "raise RuntimeError('planted')\n"})
    code, out = _lemmacheck(tmp_path, "list")
    assert code == ExitCode.TESTS_FAILED, out
    assert "IMPORT ERROR" in out and "broken" in out, out
