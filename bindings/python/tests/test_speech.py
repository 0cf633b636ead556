"""p2l.Speech: audio pushed in chunks or read from a file, measured into a mouth that a rig
shows (docs/AUDIO.md)."""
import os
import wave

import numpy as np
import pytest

import p2l

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SPEECH = os.path.join(ROOT, "tests", "audio", "data", "speech_en.wav")
EXAMPLE = os.path.join(ROOT, "examples", "character", "character.p2lrt")


def pcm16():
    with wave.open(SPEECH, "rb") as w:
        return w.getframerate(), np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")


def curve(speech, dt=1 / 60):
    levels, vowels = [], []
    while not speech.finished:
        speech.update(dt)
        levels.append(speech.level)
        vowels.append(speech.vowels)
    return levels, vowels


def test_chunks_any_dtype_give_the_file_curve():
    rate, samples = pcm16()
    whole = p2l.Speech.from_file(SPEECH, vowels=True)
    expected = curve(whole)
    assert len(expected[0]) > 200 and max(expected[0]) > 0.1
    rng = np.random.default_rng(5)
    for data in (samples, samples.tobytes(), samples.astype(np.float32) / 32768.0):
        s = p2l.Speech(rate, 1, vowels=True)
        at = 0
        while at < len(samples):
            n = int(rng.integers(1, 4097))
            chunk = data[at * 2:(at + n) * 2] if isinstance(data, bytes) else data[at:at + n]
            s.push(chunk, "s16" if isinstance(data, bytes) else "")
            at += n
        s.end()
        got = curve(s)
        # The file is decoded by libsndfile (int16 / 32768); pushed int16 is scaled as Cubism
        # scales it (/ (2^31 - 1) after widening): the same within float rounding.
        assert np.allclose(got[0], expected[0], atol=1e-6)
        assert np.allclose(got[1], expected[1], atol=1e-4)


def test_a_rig_opens_its_mouth_while_speaking():
    rig = p2l.load(EXAMPLE)
    rig.set_behaviors(p2l.LIP_SYNC)
    mouth = [i for i, pid in enumerate(rig.parameters) if "Mouth" in pid]
    if not mouth:
        pytest.skip("the example character has no mouth parameter")
    speech = p2l.Speech.from_file(SPEECH)
    opened = 0.0
    for _ in range(120):
        speech.update(1 / 60)
        rig.speak(speech)
        rig.update(1 / 60)
        opened = max(opened, max(float(rig.current_values[i]) for i in mouth))
    assert opened > 0.05


def test_bad_input_reads_well():
    with pytest.raises(ValueError, match="not an audio file"):
        p2l.Speech.from_file(EXAMPLE)
    with pytest.raises(ValueError, match="out of range"):
        p2l.Speech(100, 1)
    s = p2l.Speech(16000, 2)
    with pytest.raises(ValueError, match="columns"):
        s.push(np.zeros((10, 3), dtype=np.float32))
    with pytest.raises(TypeError, match="dtype"):
        s.push(np.zeros(10, dtype=np.complex64))
    with pytest.raises(ValueError, match="whole frames"):
        s.push(b"\x00\x01\x02", "s16")
    with pytest.raises(ValueError, match="unknown sample format"):
        s.push(b"\x00\x00\x00\x00", "s12")
    rig = p2l.load(EXAMPLE)
    with pytest.raises(ValueError):
        rig.lip_mix = "loud"
    rig.lip_mix = "set"
    assert rig.lip_mix == "set"
