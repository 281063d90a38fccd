"""The confidence fit (``python -m voice.bench.fit_confidence``, issue 25.2): it reads a
recognition pass, fits per language on the fitted voices only, and never offers a model
that takes more wrong meanings or table talk on those voices than the one in use."""

from __future__ import annotations

import json
from pathlib import Path

from voice.bench import fit_confidence as fc
from voice.recognition import sphinx

SAMPLE = Path(__file__).parent / "data" / "bench" / "recognition-sample.json"


def _samples() -> list[fc.Sample]:
    return fc.samples(json.loads(SAMPLE.read_text(encoding="utf-8")))


def test_voices_are_split_into_fitted_and_held_out_as_the_bench_names_them() -> None:
    data = _samples()
    assert {s.voice for s in data if s.fitted} <= {
        "de@160",
        "de+f3@160",
        "de@200",
        "en-us@160",
        "en-us+f3@160",
        "en-us@200",
    }
    assert {s.voice for s in data if not s.fitted} and all(
        not v.startswith(("de@", "en-us@")) for v in {s.voice for s in data if not s.fitted}
    )  # fmt: skip


def test_the_model_in_use_gives_back_the_confidences_the_bench_measured() -> None:
    for s in _samples():  # the in-use model reproduces the recogniser's own in-grammar part
        if s.confidence > 0:
            assert fc.in_grammar(fc.IN_USE, s) >= s.confidence - 1e-3


def test_a_refit_takes_no_more_wrong_meanings_or_talk_on_the_fitted_voices() -> None:
    data = [s for s in _samples() if s.lang == "en"]
    train = [s for s in data if s.fitted]
    th = sphinx.THRESHOLDS["en"]
    base = fc.judge(fc.IN_USE, train, th)
    for used in (fc.MEASURES[:3], fc.MEASURES[:5], (*fc.MEASURES[:3], "grammar")):
        got = fc.judge(fc.no_worse(fc.fit(train, used), train, th), train, th)
        for key in ("wrong_taken", "wrong_at_once", "talk_taken"):
            assert got[key] <= base[key], key


def test_fitting_separates_what_can_be_separated() -> None:
    proto = _samples()[0]
    good = [
        fc.Sample("en", "x", "move", (0.0, 0.1, 0.0, 0.9, 0.0, 3.0), True, 0.9, 1.0, True, True)
    ]
    bad = [
        fc.Sample("en", "x", "move", (-60.0, 0.8, 0.5, 0.3, 0.5, 3.0), False, 0.9, 1.0, True, True)
    ]
    w = fc.fit((good + bad) * 20, fc.MEASURES[:5])
    assert fc.in_grammar(w, good[0]) > 0.9 > 0.1 > fc.in_grammar(w, bad[0])
    assert proto.lang in ("de", "en")


def test_the_command_writes_both_voice_sets_side_by_side(tmp_path: Path) -> None:
    assert fc.main([str(SAMPLE), "--out", str(tmp_path)]) == 0
    text = (tmp_path / "fit-confidence.md").read_text(encoding="utf-8")
    for lang in ("## de", "## en"):
        assert lang in text
    assert text.count("| fitted |") == 8 and text.count("| held out |") == 8


def test_a_file_that_is_not_a_recognition_pass_is_named(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "r.json"
    bad.write_text("{broken", encoding="utf-8")
    assert fc.main([str(bad), "--out", str(tmp_path)]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad.write_text('{"heard": []}', encoding="utf-8")
    assert fc.main([str(bad), "--out", str(tmp_path)]) == 2
