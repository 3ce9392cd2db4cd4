"""The Python API a notebook uses: check one claim, a selection, the catalogue; cards and DataFrames."""

from __future__ import annotations

import pytest

import lemmacheck
from lemmacheck import Verdict


def test_check_one_claim_by_id_returns_its_result():
    r = lemmacheck.check("lse.bound_eq3")
    assert r.verdict is Verdict.REFUTED and r.id == "lse.bound_eq3"
    html = r._repr_html_()
    assert 'id="lse.bound_eq3"' in html and "REFUTED" in html and "<mfrac>" in html and "<script" not in html


def test_an_unknown_id_says_which_ids_are_close():
    with pytest.raises(KeyError, match="lse.bound"):
        lemmacheck.check("lse.boun")


def test_check_all_follows_the_k_grammar_and_shows_cards():
    rs = lemmacheck.check_all("lse.bound and not corrected")
    assert {r.id for r in rs} == {"lse.bound", "lse.bound_eq3"}
    assert rs._repr_html_().count("<article") == 2
    rows = rs.rows()
    assert {row["verdict"] for row in rows} == {"HOLDS", "REFUTED"}


def test_the_catalogue_lists_claims_without_checking_them():
    cat = lemmacheck.catalogue("schatten")
    assert "schatten.holder" in {c.id for c in cat}
    assert "<table" in cat._repr_html_()


def test_results_convert_to_a_dataframe_where_pandas_is_installed():
    pd = pytest.importorskip("pandas")
    df = lemmacheck.check_all("lse.bound_eq3").to_dataframe()
    assert isinstance(df, pd.DataFrame) and df.loc["lse.bound_eq3", "verdict"] == "REFUTED"
