"""A kind of claim is one module: the registry generates what used to be listed by hand (the Kind members,
the façade's declaration units, results.schema.json's kind parts), the engine and the mutation run
dispatch through it, and a toy kind (tests/toy_kind_monotone.py) is added with no other file."""

from __future__ import annotations

import dataclasses
import importlib
import pickle
import sys
from typing import ClassVar

import jsonschema
import pytest

import lemmacheck
from conftest import planted_meta
from lemmacheck.kinds import CHECKERS, DECLARATIONS, evidence_kinds
from lemmacheck.kinds.base import register
from lemmacheck.model.claim import REGISTRY
from lemmacheck.model.verdict import Kind, Verdict
from lemmacheck.mutate import OPERATORS, enumerate_mutants
from lemmacheck.run.engine import run_claim
from lemmacheck.schema import SCHEMA_PATH, schema, shipped_text
from lemmacheck.search.profile import QUICK

PROFILE = QUICK.with_seed(3)
BUILT_IN = ["identity", "inequality", "approximation", "property", "worked example", "complexity"]


@pytest.fixture
def unregistered_afterwards():
    """Whatever kinds the test registers are gone after it (the built-in ones stay)."""
    checkers, declarations, members = dict(CHECKERS), dict(DECLARATIONS), dict(Kind._members)
    yield
    for saved, live in ((checkers, CHECKERS), (declarations, DECLARATIONS), (members, Kind._members)):
        live.clear()
        live.update(saved)
    sys.modules.pop("toy_kind_monotone", None)


@pytest.fixture
def toy(unregistered_afterwards, registry):
    return importlib.import_module("toy_kind_monotone")


def _claim_schema_errors(record: dict) -> list[str]:
    full = schema()
    validator = jsonschema.Draft202012Validator({"$defs": full["$defs"], "$ref": "#/$defs/claim"})
    return [e.message for e in validator.iter_errors(record)]


def test_the_built_in_kinds_are_registered_by_their_modules():
    assert sorted(str(k) for k in Kind) == sorted(BUILT_IN)
    assert Kind.WORKED_EXAMPLE == "worked example" and Kind("worked example") is Kind.WORKED_EXAMPLE
    assert repr(Kind.IDENTITY) == "<Kind.IDENTITY: 'identity'>" and Kind.IDENTITY.name == "IDENTITY"
    assert sorted(evidence_kinds()) == ["approximation", "comparison", "derivation", "numeric"]
    assert set(DECLARATIONS) == {
        "inequality",
        "identity",
        "prop",
        "approximation",
        "value",
        "complexity",
        "derivation",
    }
    assert set(DECLARATIONS) <= set(lemmacheck.__all__)
    with pytest.raises(ValueError, match="not a claim kind"):
        Kind("monotone")
    with pytest.raises(AttributeError, match="no claim kind 'MONOTONE'"):
        _ = Kind.MONOTONE


def test_a_kind_member_unpickles_as_the_member_even_before_its_module_registers_it(unregistered_afterwards):
    data = pickle.dumps(Kind.WORKED_EXAMPLE)
    assert pickle.loads(data) is Kind.WORKED_EXAMPLE
    del Kind._members["WORKED_EXAMPLE"]  # a worker that has not imported the kind's module yet
    again = pickle.loads(data)
    assert again == "worked example" and again.name == "WORKED_EXAMPLE" and Kind.WORKED_EXAMPLE is again


def test_a_kind_registered_twice_under_another_value_is_an_error():
    assert Kind.register("IDENTITY", "identity") is Kind.IDENTITY
    with pytest.raises(ValueError, match="already"):
        Kind.register("IDENTITY", "equality")


def test_the_shipped_schema_is_generated_from_the_kinds():
    # The fix, when this fails: python -m lemmacheck.schema
    assert SCHEMA_PATH.read_text(encoding="utf-8") == shipped_text()
    claim = schema()["$defs"]["claim"]["properties"]
    assert claim["evidence_kind"]["enum"] == [*evidence_kinds(), ""]
    assert "tightness_witness" in claim["evidence"]["properties"]  # the numeric kind's fragment


def test_a_toy_kind_is_one_module(toy):
    @lemmacheck.monotone("toy.cube_increasing", lo=-3, hi=3, **planted_meta(Verdict.HOLDS))
    def cube(x):
        return x**3

    @lemmacheck.monotone("toy.cosine_increasing", lo=0, hi=4, **planted_meta(Verdict.REFUTED))
    def cosine(x):
        return 1 - x * x / 2 + x**4 / 24  # cos's Taylor polynomial: decreasing on (0, sqrt(6))

    assert Kind.MONOTONE == "monotone" and Kind.MONOTONE in list(Kind)
    from lemmacheck import monotone  # the façade serves a kind registered after its import

    assert monotone is toy.monotone and "monotone" in evidence_kinds()
    held = run_claim(REGISTRY["toy.cube_increasing"], PROFILE)
    refuted = run_claim(REGISTRY["toy.cosine_increasing"], PROFILE)
    assert (held.verdict, refuted.verdict) == (Verdict.HOLDS, Verdict.REFUTED), (
        held.message,
        refuted.message,
    )
    assert held.kind == "monotone" and held.evidence_kind == "monotone" and held.evidence["points"] > 0
    decrease = refuted.evidence["first_decrease"]
    assert 0 < decrease["x0"] < decrease["x1"] < 6**0.5 and float(decrease["f1"]) < float(decrease["f0"])
    for result in (held, refuted):
        assert _claim_schema_errors(result.to_dict()) == []
    assert schema()["$defs"]["claim"]["properties"]["evidence"]["properties"]["points"]["type"] == "integer"
    mutants, notes = enumerate_mutants(REGISTRY["toy.cube_increasing"], OPERATORS)
    assert mutants and all(m.target == "check" for m in mutants) and notes == []


def test_a_toy_declaration_error_names_the_claim(toy):
    @lemmacheck.monotone("toy.empty_interval", lo=1, hi=1, **planted_meta())
    def f(x):
        return x

    assert "toy.empty_interval" not in REGISTRY
    (claim_id, _module, message), *_ = REGISTRY.definition_errors
    assert claim_id == "toy.empty_interval" and "is not an interval" in message


@dataclasses.dataclass(frozen=True)
class _OpaqueCheck:
    fn: object


class _OpaqueChecker:
    spec: ClassVar[type] = _OpaqueCheck
    name: ClassVar[str] = "opaque"
    claim_kinds: ClassVar[dict[str, str]] = {"OPAQUE": "opaque"}
    evidence_schema: ClassVar[dict] = {}

    def run(self, claim, check, ctx):
        raise AssertionError("not run")

    def mutation_targets(self, check):
        return None


def test_a_kind_without_mutation_targets_is_said_not_to_be_mutated(unregistered_afterwards, registry):
    register(_OpaqueChecker())
    from lemmacheck.model.declare import register_claim

    register_claim("toy.opaque", Kind.OPAQUE, planted_meta(), __name__, check=_OpaqueCheck(fn=len))
    mutants, notes = enumerate_mutants(REGISTRY["toy.opaque"], OPERATORS)
    assert mutants == []
    assert notes == ["check not mutated: the opaque kind offers no mutation targets (its mutation_targets)"]


def test_two_kinds_may_not_give_one_evidence_field_two_schemas(unregistered_afterwards):
    class Clashing(_OpaqueChecker):
        spec = type("ClashingCheck", (), {})
        evidence_schema: ClassVar[dict] = {"tightness": {"type": "string"}}

    register(Clashing())
    with pytest.raises(ValueError, match="'tightness'"):
        schema()


_BEAM = [
    {"sequence": ["a", "blue", "square"], "score": -93},
    {"sequence": ["a", "red", "circle"], "score": -94},
]


@pytest.mark.parametrize(
    ("computed", "where", "stated_shape", "computed_shape"),
    [
        # the tree.beam2_final#3 mutant: a search one step deep returns one-word sequences
        (
            [{"sequence": ["a"], "score": -93}, _BEAM[1]],
            "[0]['sequence']",
            "a list of 3 entries",
            "a list of 1 entry",
        ),
        (_BEAM[:1], "value", "a list of 2 entries", "a list of 1 entry"),
        (
            [{"sequence": "a blue square", "score": -93}, _BEAM[1]],
            "[0]['sequence']",
            "a list",
            "a single str",
        ),
        (
            [{"sequence": [["a"], "blue", "square"], "score": -93}, _BEAM[1]],
            "[0]['sequence'][0]",
            "a single str",
            "a list",
        ),
        (
            [[["a", "blue", "square"], -93], _BEAM[1]],
            "[0]",
            "a dict with keys ['score', 'sequence']",
            "a list",
        ),
        ([{"sequence": ["a", "blue", "square"]}, _BEAM[1]], "[0]['score']", "a single int", "nothing"),
    ],
    ids=["shorter entry", "fewer entries", "str for list", "deeper nesting", "list for dict", "missing key"],
)
def test_a_worked_value_of_another_structure_is_refuted_saying_where(
    registry, computed, where, stated_shape, computed_shape
):
    """Stated and computed values that part in structure (length, nesting, type) are a computed refutation
    naming the entry and both shapes, never arithmetic on lists (which was an ERROR)."""
    lemmacheck.value("planted.beam", computed=lambda: computed, stated=_BEAM, **planted_meta(Verdict.REFUTED))
    result = run_claim(registry["planted.beam"], PROFILE)
    assert result.verdict is Verdict.REFUTED, result.message
    (row,) = [row for row in result.evidence["comparison"] if not row["match"]]
    assert row["where"] == where
    assert row["difference"].startswith(f"structure differs: stated {stated_shape}")
    assert f", computed {computed_shape}" in row["difference"]
    assert row["stated"] != row["computed"] and result.evidence["mismatches"] == 1
