"""Held-out sets are measured like the corpora (``python -m voice.bench.understanding
--held-out FILE``): situations and table from the matching corpus file, a writer's slip
reported per entry as "not measurable" instead of a crash (tests/data/heldout/)."""

from __future__ import annotations

import json
from pathlib import Path

from voice.bench.understanding import load_held_out, main, run, summarise

FIXTURE = Path(__file__).parent / "data" / "heldout" / "farben.en.yaml"


def test_entries_get_the_corpus_situations_and_slips_are_reported_one_by_one() -> None:
    cases, bad = load_held_out(FIXTURE)
    assert [c.text for c in cases] == ["I chose red", "Cem green", "pass me the juice, would you"]
    assert cases[1].before[-1] == "Summer" and len(cases[1].before) > 20  # scoring, then Summer
    assert cases[0].speaker == "Cem"
    reasons = [u.reason for u in bad]
    assert len(bad) == 3
    assert "unknown situation 'the_reveal'" in reasons[0] and "reveal" in reasons[0]
    assert "unknown intent 'show_card'" in reasons[1]
    assert "must be a mapping" in reasons[2]
    assert [u.where for u in bad] == [f"farben.en.yaml entry {n}" for n in (4, 5, 6)]


def test_measured_as_the_corpora_are() -> None:
    cases, _ = load_held_out(FIXTURE)
    (summary,) = summarise(run(cases))
    assert (summary.natural, summary.natural_right) == (2, 2)
    assert (summary.talk, summary.talk_applied) == (1, 0)


def test_the_report_has_the_held_out_columns_and_names_what_could_not_be_measured(
    tmp_path: Path,
) -> None:
    assert main(["--held-out", str(FIXTURE), "--out", str(tmp_path)]) in (0, 1)
    text = (tmp_path / "understanding-heldout.md").read_text(encoding="utf-8")
    assert "first try" in text and "asked back" in text and "not measurable" in text
    assert "unknown intent 'show_card'" in text
    (row,) = json.loads((tmp_path / "understanding-heldout.json").read_text())["summaries"]
    assert row["first_try_pct"] == 100.0 and row["not_measurable"] == 3
    assert row["table_talk_applied_typed"] == 0
    assert row["parse_median_ms"] > 0


def test_a_file_that_cannot_be_read_is_said_and_nothing_crashes(tmp_path: Path, capsys) -> None:
    broken = tmp_path / "farben.en.yaml"
    broken.write_text("entries: [text: 'red'\n", encoding="utf-8")
    foreign = tmp_path / "chess.en.yaml"
    foreign.write_text("entries: []\n", encoding="utf-8")
    assert main(["--held-out", str(broken), str(foreign), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "not valid YAML" in err and "unknown game or language" in err


def test_the_dump_holds_every_outcome_and_no_time(tmp_path: Path) -> None:
    """``--dump``: what each utterance was understood as, so that two runs that
    understood everything alike (a change meant only to be faster) write the same bytes."""
    dumps = [tmp_path / "one.jsonl", tmp_path / "two.jsonl"]
    for dump in dumps:
        code = main(["--held-out", str(FIXTURE), "--out", str(tmp_path), "--dump", str(dump)])
        assert code in (0, 1)
    lines = [json.loads(line) for line in dumps[0].read_text(encoding="utf-8").splitlines()]
    assert [line["text"] for line in lines] == [
        "I chose red",
        "Cem green",
        "pass me the juice, would you",
    ]
    assert lines[0]["got"]["intent"] and lines[0]["score"] is not None
    assert not any("second" in key or "time" in key for line in lines for key in line)
    assert dumps[0].read_bytes() == dumps[1].read_bytes()


def test_a_colour_written_by_its_name_not_its_id_is_a_slip(tmp_path: Path) -> None:
    """A writer who wrote "rosa" for pink is told so; the entry is not counted as a miss."""
    written = tmp_path / "farben.de.yaml"
    written.write_text(
        "game: farben\nlang: de\nentries:\n"
        "  - {text: 'ich hatte rosa', before: reveal,\n"
        "     expect: {intent: reveal, slots: {colour: rosa}}}\n"
        "  - {text: 'ich hatte rosa', before: reveal,\n"
        "     expect: {intent: reveal, slots: {colour: pink}}}\n",
        encoding="utf-8",
    )
    cases, bad = load_held_out(written)
    assert len(cases) == 1 and cases[0].expect == {"intent": "reveal", "slots": {"colour": "pink"}}
    (slip,) = bad
    assert "'rosa' is no colour id" in slip.reason and "pink" in slip.reason
