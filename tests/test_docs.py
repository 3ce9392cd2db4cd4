"""The docs quote the code's constants; they never retype a number that has changed."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from lemmacheck.model import tolerance
from lemmacheck.search import candidates

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(r"^\| `([A-Za-z_\[\]0-9.]+)` \| ([^|]+) \|", re.MULTILINE)


def _code_value(name: str):
    if name.startswith("DEFAULT_TOLERANCES[float64]."):
        return getattr(tolerance.DEFAULT_TOLERANCES[np.dtype(np.float64)], name.rsplit(".", 1)[1])
    for module in (tolerance, candidates):
        if hasattr(module, name):
            return getattr(module, name)
    raise AssertionError(f"docs/tolerance.md names {name!r}, which the code does not define")


ROWS = ROW.findall((ROOT / "docs" / "tolerance.md").read_text())


def test_the_tolerance_page_has_its_table():
    assert len(ROWS) >= 10


@pytest.mark.parametrize(("name", "documented"), ROWS, ids=[r[0] for r in ROWS])
def test_documented_constant_matches_the_code(name, documented):
    assert float(documented) == float(_code_value(name)), (
        f"docs say {name} = {documented}, code has {_code_value(name)}"
    )


@pytest.mark.parametrize(
    "path",
    [
        "README.md",
        "CHANGELOG.md",
        "src/lemmacheck/model/tolerance.py",
        *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")),
    ],
)
def test_no_stale_precision_is_quoted(path):
    text = (ROOT / path).read_text()
    stale = [
        m.group(0)
        for m in re.finditer(r"\b(\d+) digits\b", text)
        if int(m.group(1)) != tolerance.REVERIFY_DPS
    ]
    assert not stale, f"{path} quotes {stale}; the setting is REVERIFY_DPS = {tolerance.REVERIFY_DPS}"


def _readme_example() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Adding a claim") :]
    return section[
        section.index("```python") + len("```python") : section.index("```\n", section.index("```python") + 9)
    ]


def test_the_readme_example_runs_as_written_and_adds_a_new_claim():
    import math

    from lemmacheck import REGISTRY, Source, Verdict, from_statement, inequality
    from lemmacheck.latex.declare import COMPILED_ATTR
    from lemmacheck.model.inputs import Array
    from lemmacheck.project.discovery import discover
    from lemmacheck.run.engine import run_claim
    from lemmacheck.search.profile import QUICK

    discover()
    catalogue = set(REGISTRY.ids())
    names = {"Source": Source, "Verdict": Verdict, "inequality": inequality, "Array": Array}
    with REGISTRY.scratch() as reg:
        # pasted where the README says, so its statement is read with that module's symbol table
        exec(
            _readme_example(),
            {"__name__": "checks.norms.schatten", "math": math, "from_statement": from_statement, **names},
        )
        assert not reg.definition_errors, reg.definition_errors
        (claim_id,) = reg.ids()
        assert claim_id not in catalogue, "pasting the README's example would declare an id twice"
        # LaTeX only: the check is the statement, compiled
        assert getattr(reg[claim_id].check.fn, COMPILED_ATTR, None) is not None
        r = run_claim(reg[claim_id], QUICK.with_seed(1))
        assert r.verdict.value == reg[claim_id].expected.value, r.reason


# Every command and path the README quotes is kept working: a command is parsed by the real CLI parser
# (an option that was renamed or removed fails here, not in a newcomer's terminal) and its -k expression
# by the real selection grammar; a path the README names exists in the tree.
README = (ROOT / "README.md").read_text()
_QUOTED = [
    q.replace("\n", " ") for q in re.findall(r"`([^`]+)`", re.sub(r"```.*?```", "", README, flags=re.S))
] + [line for block in re.findall(r"```bash\n(.*?)```", README, flags=re.S) for line in block.splitlines()]


def _readme_commands() -> list[str]:
    import shlex

    commands = []
    for quoted in _QUOTED:
        for part in re.split(r"&&|;|\|", quoted):
            words = shlex.split(part.strip()) if part.strip() else []
            if words[:1] == ["lemmacheck"] and len(words) > 1:  # alone, `lemmacheck` is the package
                commands.append(" ".join(shlex.quote(w) for w in words))
    return commands


def _readme_paths() -> list[str]:
    quoted = [q for q in _QUOTED if " " not in q] + re.findall(r"\]\(([^)#\s]+)", README)
    paths = {q.rstrip("/") for q in quoted if "/" in q or re.search(r"\.(md|py|toml|png)$", q)}
    # generated output and the documents beside the repository are not part of the tree
    return sorted(p for p in paths if not p.startswith(("reports/", "../", "http", ".lemmacheck-cache")))


COMMANDS = sorted(set(_readme_commands()))
PATHS = _readme_paths()


def test_the_readme_quotes_commands_and_paths():
    assert any(c.startswith("lemmacheck run") for c in COMMANDS), COMMANDS
    assert len(PATHS) >= 5, PATHS


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_the_readme_quotes_parses_with_the_real_cli(command, capsys):
    import shlex

    from lemmacheck.cli.common import UsageError
    from lemmacheck.cli.main import _parser
    from lemmacheck.project.selection import compile_expression

    try:
        args = _parser().parse_args(shlex.split(command)[1:])
    except (SystemExit, UsageError) as exc:
        raise AssertionError(
            f"README quotes `{command}`, which the CLI refuses: {capsys.readouterr().err}"
        ) from exc
    assert args.command is not None, f"`{command}` names no subcommand"
    compile_expression(getattr(args, "keyword", None))  # a malformed -k raises SelectionError here


@pytest.mark.parametrize("path", PATHS)
def test_a_path_the_readme_names_exists(path):
    assert (ROOT / path).exists(), f"README.md names {path}, which is not in the tree"


def test_the_command_check_fails_on_a_planted_bad_option():
    import shlex

    from lemmacheck.cli.common import UsageError
    from lemmacheck.cli.main import _parser

    with pytest.raises(UsageError, match="no-such-option"):
        _parser().parse_args(shlex.split("run -k lse --no-such-option"))


def test_the_readme_test_command_is_the_one_ci_runs():
    """.ci/run runs the README's test command as written: the two must not drift apart."""
    blocks = re.findall(r"```bash\n(.*?)```", README, flags=re.S)
    test_command = next(line for b in blocks for line in b.splitlines() if "pytest" in line)
    assert test_command in (ROOT / ".ci" / "run").read_text(), test_command


def test_the_docs_index_lists_every_page_and_every_link_resolves():
    index = (ROOT / "docs" / "README.md").read_text()
    pages = sorted(p.name for p in (ROOT / "docs").glob("*.md") if p.name != "README.md")
    missing = [p for p in pages if f"]({p})" not in index]
    assert not missing, f"docs/README.md does not list {missing}"
    for page in [ROOT / "docs" / "README.md", *(ROOT / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text()):
            if not target.startswith("http"):
                assert (page.parent / target).exists(), f"{page.name} links {target}, which does not exist"
