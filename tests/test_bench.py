"""The speech benchmark: its corpus fits the grammar, and a smoke run writes sane reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli
from speech import needs_tts

from voice.bench.corpus import ReferenceGame, build_items, corpus_data
from voice.bench.report import Row, targets
from voice.bench.run import Condition


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_command_of_the_corpus_is_understood_where_it_is_said(lang: str) -> None:
    game = ReferenceGame(lang)
    moments = game.moments()
    items = build_items(game, moments)  # raises CorpusError for a sentence not understood
    kinds = {item.kind for item in items}
    assert kinds == {"move", "command", "answer", "table_talk"}
    for item in items:
        phrases = moments[item.moment].phrases
        if item.kind == "table_talk":
            assert item.expected is None
            assert item.text.lower().rstrip(".!?") not in phrases
        else:
            assert item.expected is not None
    assert game.colours and len(game.colours) == 20


@pytest.mark.parametrize("lang", ["de", "en"])
def test_table_talk_and_babble_do_not_overlap(lang: str) -> None:
    data = corpus_data(lang)
    assert len(data["table_talk"]) >= 30
    assert not set(data["table_talk"]) & set(data["babble"])


def test_noise_conditions_are_parsed_and_checked() -> None:
    assert Condition.parse("clean") == Condition("pink", 35.0, "clean")
    assert Condition.parse("babble:10").label == "babble 10 dB"
    for bad in ("brown:10", "pink", "pink:loud", "white:99"):
        with pytest.raises(ValueError):
            Condition.parse(bad)


def test_targets_are_judged_from_the_rows() -> None:
    rows = [
        Row(("sphinx", "en", "clean"), accuracy=0.98, false_accepts=0.04, p95=0.25),
        Row(("sphinx", "en", "pink 10 dB"), accuracy=0.80, p95=0.35),
    ]
    verdicts = {t.text: t.met for t in targets(rows)}
    assert verdicts["English intent accuracy, quiet room"] is True
    assert verdicts["English intent accuracy, pink 10 dB"] is False
    assert verdicts["English table talk accepted, quiet room"] is True
    assert verdicts["de: wrong moves applied per move, quiet room"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "fr"], "'fr' is not one of de, en"),
        (["--noise", "pink:x"], "give the SNR in dB"),
        (["--voices-de", "de@fast"], "words per minute"),
        (["--jobs", "0"], "--jobs"),
    ],
)
def test_bad_options_are_usage_errors(args: list[str], message: str) -> None:
    run = run_cli("bench", *args)
    assert run.code == 2
    assert message in run.err


@needs_tts
def test_a_voice_espeak_cannot_speak_is_a_clear_error(tmp_path: Path) -> None:
    run = run_cli(
        "bench", "--lang", "en", "--voices-en", "xx-nobody", "--out", str(tmp_path / "out")
    )
    assert run.code == 1
    assert "no usable voice for en" in run.err
    assert "left out: xx-nobody" in run.err
    assert not (tmp_path / "out").exists()


@needs_tts
@pytest.mark.slow
def test_a_quick_run_writes_a_report_a_chart_and_the_results(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    out = tmp_path / "bench"
    run = run_cli("bench", "--quick", "--lang", "en", "--out", str(out), "--cache", str(tmp_path))
    assert run.code == 0, run.err
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## Targets" in report and "| sphinx | en | clean |" in report
    assert (out / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    heard = results["heard"]
    assert {h["condition"] for h in heard} == {"clean", "pink 10 dB"}
    commands = [h for h in heard if h["kind"] != "table_talk" and h["condition"] == "clean"]
    assert sum(h["correct"] for h in commands) / len(commands) >= 0.8
    latencies = sorted(h["latency"] for h in heard if h["latency"] is not None)
    assert 0.05 < latencies[len(latencies) // 2] < 2.0  # seconds, end of speech → decision
    played = results["played"]
    assert played and all(p["utterances"] >= 1 for p in played)
    assert all(p["done"] for p in played if p["condition"] == "clean")
