"""Odd files in the content tree cost nothing but a warning: a FIFO named like a module is skipped (it
made ``list`` and ``run`` hang in ``open()``), and a link leading back into the tree is not followed
(``loop -> ..`` re-imported the tree under new names: 16,560 "declared twice" errors, exit 0)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from lemmacheck.cli.exitcodes import ExitCode
from planted_project import AM_GM, make_project

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and links as on POSIX")


def _lemmacheck(root, *args: str) -> tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "lemmacheck.cli", *args],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,  # a hang guard, not a measurement: before, open() of the FIFO waited forever
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def _planted(tmp_path, odd: str) -> tuple[str, str]:
    pkg = make_project(tmp_path, {"topic/mod": AM_GM})
    topic = tmp_path / pkg / "topic"
    if odd == "fifo":
        os.mkfifo(topic / "x.py")
        return pkg, f"{pkg}/topic/x.py is not a regular file"
    if odd == "fifo package":
        (topic / "sub").mkdir()
        os.mkfifo(topic / "sub" / "__init__.py")
        (topic / "sub" / "y.py").write_text("")
        return pkg, f"{pkg}/topic/sub/__init__.py is not a regular file"
    if odd == "loop":
        os.symlink("..", topic / "loop")
        return pkg, f"{pkg}/topic/loop is a link back into the project"
    if odd == "file link":
        os.symlink("mod.py", topic / "alias.py")
        return pkg, f"{pkg}/topic/alias.py is a link back into the project"
    os.symlink("nowhere", topic / "dangling.py")
    return pkg, f"{pkg}/topic/dangling.py is a link to 'nowhere', which leads nowhere"


@pytest.mark.parametrize("odd", ["fifo", "fifo package", "loop", "file link", "dangling"])
def test_an_odd_file_in_the_content_tree_is_skipped_with_one_warning_naming_it(tmp_path, odd):
    pkg, warning = _planted(tmp_path, odd)
    code, out, err = _lemmacheck(tmp_path, "list")
    assert code == ExitCode.OK, out + err
    assert f"{pkg}.am_gm" in out and "declared twice" not in out and "ERROR" not in out, out
    warned = [line for line in err.splitlines() if "warning" in line]
    assert len(warned) == 1 and warned[0].startswith(f"lemmacheck: warning: {warning}"), err
    code, out, err = _lemmacheck(tmp_path, "run", "-k", "am_gm", "-j", "1", "--quiet", "--no-studies")
    assert code == ExitCode.OK, out + err
    claims = json.loads((tmp_path / "reports" / "results.json").read_text())["claims"]
    assert [(c["id"], c["verdict"]) for c in claims] == [(f"{pkg}.am_gm", "HOLDS")]
    assert warning in err
