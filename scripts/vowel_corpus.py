#!/usr/bin/env python3
"""Speaks held vowels and short words with espeak-ng and writes, per utterance, a WAV and the
phoneme labels espeak-ng itself reports: the corpus of scripts/vowel_accuracy.sh.

espeak-ng (GPL) is driven through its shared library with ctypes, so none of it is linked into
p2lrt. Its phoneme events give each phoneme's first sample; a phoneme lasts until the next
event. Every label line is "start_seconds end_seconds phoneme class", class being one of
A I U E O silence, or "-" for a phoneme that is not scored (consonants, schwa, diphthongs).

    vowel_corpus.py OUT_DIR [--quick] [--voices=V1,V2...]

writes OUT_DIR/<voice>_<kind>_<name>.{wav,lab} and OUT_DIR/manifest.txt with one line
"voice kind wav lab" per utterance (kind: held or word). --voices speaks other voices (English,
Japanese or Spanish ones, with any variant), e.g. to try the estimator on voices it was not
tuned on.
"""
import ctypes
import os
import struct
import sys
import wave

# The voices: an English male and female variant, Japanese, and a Spanish female variant.
VOICES = ["en+m3", "en+f3", "ja", "es+f3"]
QUICK_VOICES = ["en+m3", "en+f3", "ja"]

# Held vowels: one long phoneme each, in espeak-ng's phoneme mnemonics ([[...]] input).
HELD = {
    "en": {"A": "A:", "I": "i:", "U": "u:", "E": "E:", "O": "O:"},
    "ja": {"A": "a:", "I": "i:", "U": "u:", "E": "e:", "O": "o:"},
    "es": {"A": "a:", "I": "i:", "U": "u:", "E": "e:", "O": "o:"},
}
HELD_PITCHES = [35, 50, 70]  # espeakPITCH, 0..100 (50 is the voice's own)
QUICK_HELD_PITCHES = [50]

WORDS = {
    "en": ["father", "see", "moon", "bed", "saw", "food", "spa", "calm", "palm", "keep",
           "teeth", "feet", "blue", "shoe", "pen", "ten", "met", "law", "talk", "caught"],
    "ja": ["かき", "すし", "もも", "ねこ", "あめ", "いぬ", "うみ", "えき", "おに", "さかな",
           "みそ", "ふね", "くも", "せみ", "のり", "たまご", "こころ", "てがみ", "ひこうき", "すいか"],
    "es": ["casa", "piso", "luna", "mesa", "toro", "kilo", "puma", "pelo", "gato", "nube",
           "fuego", "mano", "libro", "techo", "cuna", "dedo", "sopa", "lima", "ropa", "tela"],
}
QUICK_WORDS = 6  # the first few words per voice in --quick: every vowel in each language

# espeak-ng phoneme mnemonics (as its phoneme events name them) to the five classes. English
# (en, en-gb): a, A:, aa -> A; i, i:, I -> I; u:, U -> U; E, e -> E; O:, O, 0 -> O. Diphthongs
# (eI, aI, aU, oU, @U, OI, i@, e@, U@), schwa (@, 3, 3:, @L), strut (V) and r-coloured vowels
# are not scored: their shape moves or lies between classes. Japanese and Spanish vowels are
# a i u e o (long marks dropped).
CLASSES = {
    "a": "A", "A:": "A", "aa": "A", "a:": "A", "A": "A",
    "i": "I", "i:": "I", "I": "I", "I2": "I",
    "u": "U", "u:": "U", "U": "U",
    "e": "E", "e:": "E", "E": "E", "E:": "E",
    "o": "O", "o:": "O", "O": "O", "O:": "O", "0": "O",
    "_": "silence", "_:": "silence", "_!": "silence", "_^_": "silence",
}


class EventId(ctypes.Union):
    _fields_ = [("number", ctypes.c_int), ("name", ctypes.c_char_p), ("string", ctypes.c_char * 8)]


class Event(ctypes.Structure):  # espeak_EVENT of speak_lib.h
    _fields_ = [("type", ctypes.c_int), ("unique_identifier", ctypes.c_uint),
                ("text_position", ctypes.c_int), ("length", ctypes.c_int),
                ("audio_position", ctypes.c_int), ("sample", ctypes.c_int),
                ("user_data", ctypes.c_void_p), ("id", EventId)]


EVENT_LIST_TERMINATED, EVENT_PHONEME = 0, 7
AUDIO_OUTPUT_SYNCHRONOUS = 2
INITIALIZE_PHONEME_EVENTS = 0x0001
CHARS_UTF8, PHONEMES = 0x1, 0x100
RATE, PITCH = 1, 3
POS_CHARACTER = 1


class Speaker:
    def __init__(self):
        self.lib = ctypes.CDLL("libespeak-ng.so.1")
        self.rate = self.lib.espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, None, INITIALIZE_PHONEME_EVENTS)
        if self.rate <= 0:
            raise SystemExit("espeak-ng: espeak_Initialize failed")
        callback_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int,
                                         ctypes.POINTER(Event))
        self.callback = callback_type(self._receive)  # kept alive as long as the library uses it
        self.lib.espeak_SetSynthCallback(self.callback)
        self.samples, self.phonemes = [], []

    def _receive(self, wav, count, events):
        if wav and count > 0:
            self.samples.extend(wav[:count])
        i = 0
        while events[i].type != EVENT_LIST_TERMINATED:
            event = events[i]
            if event.type == EVENT_PHONEME:
                name = bytes(event.id.string).split(b"\0")[0].decode("latin-1")
                self.phonemes.append((event.sample, name))
            i += 1
        return 0

    def speak(self, voice, text, speed, pitch):
        """Returns (samples, [(first_sample, phoneme)]) for [text]."""
        if self.lib.espeak_SetVoiceByName(voice.encode()) != 0:
            raise SystemExit(f"espeak-ng: no voice {voice}")
        self.lib.espeak_SetParameter(RATE, speed, 0)
        self.lib.espeak_SetParameter(PITCH, pitch, 0)
        self.samples, self.phonemes = [], []
        data = text.encode("utf-8")
        self.lib.espeak_Synth(data, len(data) + 1, 0, POS_CHARACTER, 0, CHARS_UTF8 | PHONEMES, None, None)
        self.lib.espeak_Synchronize()
        return self.samples, self.phonemes


def write_utterance(out_dir, stem, rate, samples, phonemes):
    # Half a second of silence before and after: the tracker starts from nothing, as Speech does.
    pad = rate // 2
    padded = [0] * pad + list(samples) + [0] * pad
    with wave.open(os.path.join(out_dir, stem + ".wav"), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(struct.pack(f"<{len(padded)}h", *padded))
    total = len(padded) / rate
    lines = [f"0 {pad / rate:.6f} _ silence"]
    for k, (first, name) in enumerate(phonemes):
        end = phonemes[k + 1][0] if k + 1 < len(phonemes) else len(samples)
        if end <= first:
            continue
        lines.append(f"{(first + pad) / rate:.6f} {(end + pad) / rate:.6f} {name} {CLASSES.get(name, '-')}")
    lines.append(f"{(len(samples) + pad) / rate:.6f} {total:.6f} _ silence")
    with open(os.path.join(out_dir, stem + ".lab"), "w") as lab:
        lab.write("\n".join(lines) + "\n")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    voices = QUICK_VOICES if quick else VOICES
    for a in sys.argv[1:]:
        if a.startswith("--voices="):
            voices = a[len("--voices="):].split(",")
    if len(args) != 1:
        raise SystemExit(__doc__)
    out_dir = args[0]
    os.makedirs(out_dir, exist_ok=True)
    speaker = Speaker()
    manifest = []
    for voice in voices:
        language = voice[:2]
        tag = voice.replace("+", "-")
        for vowel, phoneme in HELD[language].items():
            for pitch in QUICK_HELD_PITCHES if quick else HELD_PITCHES:
                samples, phonemes = speaker.speak(voice, f"[[{phoneme}]]", 80, pitch)
                stem = f"{tag}_held_{vowel}{pitch}"
                write_utterance(out_dir, stem, speaker.rate, samples, phonemes)
                manifest.append(f"{voice} held {stem}.wav {stem}.lab")
        words = WORDS[language][:QUICK_WORDS] if quick else WORDS[language]
        for n, word in enumerate(words):
            samples, phonemes = speaker.speak(voice, word, 150, 50)
            stem = f"{tag}_word_{n:02d}"
            write_utterance(out_dir, stem, speaker.rate, samples, phonemes)
            manifest.append(f"{voice} word {stem}.wav {stem}.lab")
    with open(os.path.join(out_dir, "manifest.txt"), "w") as f:
        f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
