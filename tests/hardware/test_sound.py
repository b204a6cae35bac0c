"""The board's cues on a buzzer (gpiozero, here on its MockFactory's pins) and on the audio
out, and its voice (eSpeak NG): each plays in a thread of its own, newest first."""

from __future__ import annotations

import io
import shutil
import time
import wave

from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_host import i18n
from firmware_host.runtime.sound import VOICES
from hardware.sound import CUES, AudioCues, Buzzer, Voice, wav
from testbed.tools import require, wait_until


def test_an_active_buzzer_sounds_each_note_of_a_cue():
    factory = MockFactory()
    buzzer = Buzzer(12, pin_factory=factory)
    pin = factory.pin(12)
    buzzer.cue("refused")  # two notes
    assert wait_until(lambda: [s.state for s in pin.states][-4:] == [True, False, True, False])
    buzzer.close()


def test_a_passive_buzzer_plays_the_notes_of_a_cue():
    factory = MockFactory(pin_class=MockPWMPin)
    buzzer = Buzzer(12, tonal=True, pin_factory=factory)
    pin = factory.pin(12)
    buzzer.cue("over")
    assert wait_until(lambda: pin.frequency is None and len(pin.states) > 3)
    heard = {round(s.state, 2) for s in pin.states}
    assert 0.5 in heard  # a square wave while a note sounds
    buzzer.close()


def test_each_cue_is_a_short_sound_file():
    for name, notes in CUES.items():
        with wave.open(io.BytesIO(wav(notes))) as file:
            seconds = file.getnframes() / file.getframerate()
        assert 0.05 <= seconds <= 1.0, name


def test_an_audio_out_that_fails_is_said_once():
    err = io.StringIO()
    cues = AudioCues(command=("false",), err=err)
    cues.cue("move")
    assert wait_until(lambda: cues.player.problem is not None)
    cues.cue("turn")
    time.sleep(0.2)
    cues.close()
    assert err.getvalue().count("false failed") == 1


def test_the_voice_speaks_a_sentence_as_sound():
    require(shutil.which("espeak-ng") is not None, "espeak-ng")
    heard = bytearray()
    voice = Voice(sink=heard.extend)
    voice.say("White places on f 14")
    assert wait_until(lambda: len(heard) > 20000, 10)
    voice.close()
    assert heard[:4] == b"RIFF"


def test_without_espeak_the_voice_says_so_once_and_stays_silent(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    err = io.StringIO()
    voice = Voice(sink=lambda chunk: None, err=err)
    voice.say("White places on f 14")
    voice.close()
    assert err.getvalue().count("espeak-ng is not installed") == 1


def test_each_language_the_board_speaks_has_a_voice_espeak_ng_knows():
    """The voice a German or French board speaks in (``[sound] voice`` left out) is one of
    eSpeak NG's: it says a sentence in it (a voice it lacks says nothing)."""
    require(shutil.which("espeak-ng") is not None, "espeak-ng")
    assert set(VOICES) == set(i18n.LANGUAGES)
    for name in (*VOICES.values(), "xx-none"):
        heard = bytearray()
        voice = Voice(sink=heard.extend)
        voice.say("B 2", name)
        spoke = wait_until(lambda: len(heard) > 20000, 5 if name != "xx-none" else 1)
        voice.close()
        assert spoke == (name != "xx-none"), name
