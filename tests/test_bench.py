"""The speech benchmark: its corpus fits the grammar, and a smoke run writes sane reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run_cli
from speech import needs_tts

from voice.bench.corpus import ReferenceGame, build_items, colour_name, corpus_data
from voice.bench.reference import ReferencePlay
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


@pytest.fixture(scope="module")
def references() -> dict[tuple[str, str], tuple[ReferencePlay, dict, list]]:
    out = {}
    for game in ("farben", "pantone"):
        for lang in ("de", "en"):
            ref = ReferencePlay(game, lang)
            moments = ref.moments()
            out[(game, lang)] = (ref, moments, ref.items(moments))  # CorpusError if not
    return out


@pytest.mark.parametrize("lang", ["de", "en"])
def test_farben_corpus_covers_every_phase_with_its_real_grammar(references, lang: str) -> None:
    ref, moments, items = references[("farben", lang)]
    said = {ref.actions[moments[i.moment].number].name for i in items if i.kind == "move"}
    assert said == {"first", "side", "ready", "reveal", "done", "stack", "name", "hint"}
    assert {i.kind for i in items} == {"move", "command", "table_talk"}
    colours = {colour_name(c, lang) for c in ("red", "blue", "green", "yellow", "purple")}
    phases = set()
    session = ref.new_session()
    for moment in moments.values():
        session.actions = ref.actions[: moment.number]
        session.check_replay()
        game = session.game
        phases.add(game.stage)
        phrases = set(moment.phrases)
        if game.stage == "reveal":  # only a card the teller still holds can be shown
            held = {colour_name(c, lang) for c in game.colours_in_hand(game.teller)}
            assert held <= phrases
            assert not (colours - held) & phrases
        if game.stage == "naming":  # never narrowed towards the right answer
            assert all(f"{p.lower()} {c}" in phrases for p in ref.players for c in colours)
    assert {"reveal", "naming", "choose_stack", "side", "choosing", "story"} <= phases


@pytest.mark.parametrize("lang", ["de", "en"])
def test_pantone_corpus_has_numbers_guesses_wrong_guesses_pass_and_penalties(
    references, lang: str
) -> None:
    ref, moments, items = references[("pantone", lang)]
    said = {ref.actions[moments[i.moment].number].name for i in items if i.kind != "table_talk"}
    assert {"first", "choose", "done", "guess", "pass", "penalty"} <= said
    wrong = [i for i in items if i.kind == "wrong_guess"]
    assert len(wrong) >= 4 and ref.outside
    assert any(i.kind == "command" and "hints" in repr(i.expected) for i in items)
    from voice.session.adapters.pantone import character_values

    plain = [v.spoken for v in character_values(ref._deck(), lang) if v.spoken.isalpha()]
    assert len(plain) > 20
    guessing = [m for m in moments.values() if "guess" in m.phase.intents]
    assert guessing
    for moment in guessing:  # every name of the deck, whatever the card: nothing given away
        assert set(plain) <= set(moment.phrases)


def test_the_scorer_counts_one_card_or_side_said_two_ways_as_one_meaning(references) -> None:
    """An alias and the name of one card are one guess; "the upper one" is the word on top;
    another card, or the other side, stays another meaning."""
    ref, moments, _ = references[("pantone", "de")]
    moment = next(m for m in moments.values() if ref.actions[m.number].name == "guess")
    game = ref.game_at(moment.number)
    with_alias = [c for c in game.deck if c.aliases]
    card = with_alias[0]
    other = with_alias[1]

    def guess(name: str) -> tuple:
        return ("guess", (("character", name),))

    assert ref.canonical(guess(card.name), moment) == ref.canonical(guess(card.aliases[0]), moment)
    assert ref.canonical(guess(card.name), moment) != ref.canonical(guess(other.name), moment)
    step = ref.actions[moment.number]
    said = {"name": "guess", "args": {"text": card.aliases[0], "name": card.aliases[0]}}
    named = {"name": "guess", "args": {"text": card.name, "name": card.name}}
    assert ref.move_key(said, moment.number) == ref.move_key(named, moment.number)
    assert ref.move_key(step.to_json(), moment.number) != ref.move_key(
        {"name": "pass", "args": {}}, moment.number
    )
    ref, moments, _ = references[("farben", "en")]
    moment = next(m for m in moments.values() if ref.actions[m.number].name == "side")
    word = ref.actions[moment.number].args["word"]
    sides = [ref.canonical(("choose_side", (("side", n),)), moment) for n in (1, 2)]
    assert ("choose_side", (("word", word),)) in sides
    assert sides[0] != sides[1]


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
    assert verdicts["German intent accuracy, quiet room"] is None
    assert verdicts["English table talk accepted, quiet room"] is True
    assert verdicts["de: wrong moves applied per move, quiet room"] is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "fr"], "'fr' is not one of de, en"),
        (["--noise", "pink:x"], "give the SNR in dB"),
        (["--voices-de", "de@fast"], "words per minute"),
        (["--jobs", "0"], "--jobs"),
        (["--engine", "sphinx,tcp://127.0.0.1"], "not one of sphinx, vosk, tcp://HOST:PORT"),
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
    assert {h["game"] for h in heard} == {"alle-meine-farben", "farben", "pantone"}
    assert {p["game"] for p in results["played"]} == {"alle-meine-farben", "farben", "pantone"}
    for game in ("farben", "pantone"):
        assert f"| sphinx | {game} | en | clean |" in report
    commands = [h for h in heard if h["kind"] != "table_talk" and h["condition"] == "clean"]
    assert sum(h["correct"] for h in commands) / len(commands) >= 0.8
    latencies = sorted(h["latency"] for h in heard if h["latency"] is not None)
    assert 0.05 < latencies[len(latencies) // 2] < 2.0  # seconds, end of speech → decision
    played = results["played"]
    assert played and all(p["utterances"] >= 1 for p in played)
    assert all(p["done"] for p in played if p["condition"] == "clean")


def test_what_limits_it_counts_misses_without_tripping_over_silence() -> None:
    from voice.bench.report import limits
    from voice.bench.run import Heard, Played

    def heard(text: str, correct: bool, decision: str) -> Heard:
        return Heard("sphinx", "en", "v", "clean", "move", "red", ("x",), text, None, 0.5,
                     decision, 0.2, correct, game="farben")  # fmt: skip

    rows = limits(
        [
            heard("", False, "none"),
            heard("blue", False, "act"),
            heard("red", True, "ask_again"),
            heard("red", True, "act"),
        ],  # fmt: skip
        [Played("sphinx", "en", "v", "clean", "m", utterances=3, confirmations=1, game="farben")],
    )
    assert rows[2] == (
        "| sphinx | farben | en | clean | 4 | 50.0% | 25.0% | 25.0% | 25.0% | 3.00 | 1.00 | 1.00 |"
    )


@pytest.mark.parametrize("game", ["alle-meine-farben", "farben"])
def test_the_play_pass_decides_with_the_recognisers_own_thresholds(game, monkeypatch) -> None:
    """As at a real table, the simulated players' session trusts the recogniser on its
    own scale (sphinx: German moves from 0.995, English from 0.95), not the default."""
    from types import SimpleNamespace

    from voice.bench import run
    from voice.bench.audio import Voice
    from voice.recognition.base import Thresholds

    own = Thresholds(act=0.61, confirm=0.42)
    seen: list[Thresholds] = []

    def say_once(session, table, text, voice, cache_dir, recorder, result) -> None:
        seen.append(session.policy.thresholds)
        result.utterances += 1
        result.done = True

    monkeypatch.setattr(run, "_say_once", say_once)
    table = SimpleNamespace(
        recogniser=SimpleNamespace(thresholds=own), condition=Condition.parse("clean")
    )
    labels = {"engine": "sphinx", "lang": "de"}
    if game == "alle-meine-farben":
        run.play_pass(table, ReferenceGame("de"), Voice("de"), labels, None, moves_limit=3)
    else:
        ref = ReferencePlay("farben", "de")
        run.play_reference(table, ref, Voice("de"), labels, None, moves_limit=3)
    assert seen and all(t is own for t in seen)


def test_the_report_says_what_each_wrong_move_was_heard_as() -> None:
    """A wrong move of the play pass is listed with what was said, what the recogniser
    heard (and how sure it was), which question it answered, and the move applied; so a
    wrong move in a full run can be traced without running it again."""
    from games.engine import Action
    from voice.bench import run
    from voice.bench.report import wrong_moves
    from voice.bench.run import Played

    played = Played("sphinx", "de", "de", "babble 10 dB", "turn3", game="farben")
    played.heard = [{"text": "ja", "confidence": 0.81, "at": 3.2}]
    asked = Action("name", {"player": "Julia", "colour": "red"})
    run._note_wrong(played, "nein", ("move", asked), asked)
    played.wrong_applied += 1
    (line,) = wrong_moves([played])
    assert "said “nein”, heard “ja” 0.810" in line
    assert "answering “move”" in line and "'colour': 'red'" in line
    data = played.to_json()
    assert data["wrong"][0]["said"] == "nein" and "heard" not in data


def test_table_talk_heard_as_table_talk_is_not_counted_as_accepted() -> None:
    """The grammar gives table talk a place ("der Ball nicht rot"): heard as that, the
    session lets it be whatever the confidence, so the benchmark does not count it as
    table talk accepted; heard as a move it does."""
    from types import SimpleNamespace

    from games.engine import Setup
    from voice.bench import run
    from voice.output.sinks import NullOutput
    from voice.recognition.base import Transcript
    from voice.session.adapters import adapter_for
    from voice.session.session import Session
    from voice.understanding.policy import Decision, PlayPolicy

    setup = Setup(("Anna", "Ben", "Cem"), 7, "Ben", {"variant": "basic"})
    session = Session(adapter_for("alle-meine-farben"), "de", setup, NullOutput())
    session.start()
    moment = SimpleNamespace(key="at1", phase=session.phase())
    policy = PlayPolicy(session.parser)
    phrases = session.phrases()
    talk = next(p for p in phrases if p.split()[-2:] == ["nicht", "rot"])
    assert "rot" in phrases
    heard = run._decide(policy, Transcript(talk, 0.99), moment, session.is_move)
    assert heard.intent.name == "talk" and heard.decision is Decision.IGNORE
    heard = run._decide(policy, Transcript("rot", 0.99), moment, session.is_move)
    assert heard.intent.name == "place" and heard.decision is Decision.ACT


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_wrong_guesses_said_are_characters_the_game_knows(lang: str) -> None:
    """A wrong guess the benchmark says is a well-known character outside the deck: a
    name the game does not know cannot be heard at all, and would count against the
    recogniser ("Kalle Blomquist" was missing from the German list)."""
    from games.pantone_deck import famous_characters
    from words.text import normalize

    play = ReferencePlay("pantone", lang)
    known = {normalize(form) for other in famous_characters(lang) for form in other.forms}
    assert play.outside  # there are wrong guesses to say
    assert [name for name in play.outside if normalize(name) not in known] == []


def test_wrong_moves_taken_back_by_the_players_no_are_not_left_standing() -> None:
    """Implicit confirmation: a wrong move said back and taken back by "nein" counts as
    applied, not as left standing; one the table had to fix by hand counts as both."""
    from voice.bench.report import aggregate, table
    from voice.bench.run import Played

    played = [
        Played("sphinx", "de", "v", "clean", "a", utterances=2, wrong_applied=1, done=True),
        Played(
            "sphinx",
            "de",
            "v",
            "clean",
            "b",
            utterances=1,
            wrong_applied=1,
            wrong_standing=1,
            done=True,
        ),  # fmt: skip
        Played("sphinx", "de", "v", "clean", "c", utterances=1, done=True),
        Played("sphinx", "de", "v", "clean", "d", utterances=1, done=True),
    ]
    [row] = aggregate([], played, lambda p: (p.engine, p.lang, p.condition))
    assert row.wrong_per_move == 0.5 and row.standing_per_move == 0.25
    head, _, line = table([row], ["engine", "lang", "condition"])
    assert "wrong left standing / move" in head and "| 50.0% | 25.0% |" in line


def test_every_table_shows_the_held_out_voices_beside_the_fitted_ones(tmp_path: Path) -> None:
    from voice.bench.report import write_report
    from voice.bench.run import Heard, Played

    def heard(voice: str, correct: bool, kind: str = "command") -> Heard:
        return Heard("sphinx", "en", voice, "clean", kind, "red", "red", "red", None, 0.9,
                     "act", 0.2, correct, game="farben")  # fmt: skip

    fitted = [heard("en-us@160", True) for _ in range(10)]  # as the bench names it
    held = [heard("en-gb", n < 8) for n in range(10)]  # 80 %: 20 points below
    played = [Played("sphinx", "en", v, "clean", "side", utterances=1, done=True,
                     latencies=[0.2], game="farben") for v in ("en-us", "en-gb")]  # fmt: skip
    paths = write_report(tmp_path, fitted + held, played, {"command": "test"})
    text = paths["report"].read_text(encoding="utf-8")
    assert "| target | goal | fitted voices | met | held-out voices | met |" in text
    row = next(line for line in text.splitlines() if "English intent accuracy, quiet" in line)
    assert "100.0%" in row and "80.0%" in row
    gap = next(line for line in text.splitlines() if line.startswith("| sphinx | farben | en |"))
    assert "**no**" in gap  # held out more than 3 points below the fitted voices
    by_game = text.split("## By game")[1].split("##")[0]
    assert "| fitted |" in by_game and "| held out |" in by_game
