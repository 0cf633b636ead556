/*
 * p2l_speech.h: a character that speaks. A speech takes audio as it arrives (PCM chunks of any size
 * in any of the formats below) or from a file (WAV, FLAC, OGG/Vorbis), and each p2l_speech_update
 * measures the audio the time step covered: the mouth level Cubism's sample computes (the root mean
 * square of every channel's samples since the previous update, no smoothing) and, with
 * P2L_SPEECH_VOWELS, the vowel spoken (A, I, U, E, O or silence). p2l_speak hands both to a rig,
 * whose lip sync (P2L_LIP_SYNC behavior) then opens and shapes the mouth at each p2l_update.
 *
 *   P2lSpeech *voice = p2l_speech_create(48000, 1, P2L_SPEECH_VOWELS, error, sizeof error);
 *   p2l_behaviors(rig, P2L_BLINK | P2L_BREATH | P2L_LIP_SYNC);
 *   when audio arrives:  p2l_speech_push(voice, pcm, frames, P2L_PCM_S16);
 *   every frame:         p2l_speech_update(voice, dt); p2l_speak(rig, voice); p2l_update(rig, dt);
 *
 * Timing: the speech's clock advances with dt but never past the audio pushed (it waits for more,
 * the level then 0). The level covers the audio since the previous update; the vowels cover the
 * last p2l_speech_latency() x 2 seconds. docs/AUDIO.md states every rule and the measured latency.
 * Updates allocate nothing; a push allocates only while the speech's buffer grows.
 *
 * Library: libp2l.so, or libp2l.a (statically, link libsndfile too). Additions to ABI 1.4, as
 * p2l.h's own additions are. No C++ exception, abort or undefined behaviour crosses this interface;
 * a NULL speech makes every call return zero, false or NULL.
 */
#ifndef P2L_P2L_SPEECH_H
#define P2L_P2L_SPEECH_H

#include "p2l/p2l.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct P2lSpeech P2lSpeech;

/* Sample formats, little-endian, channels interleaved. Integers are scaled as Cubism's sample
 * scales WAV samples (widened to 32 bits, 8-bit centred first, divided by 2^31 - 1); floats are
 * taken as they are (NaN and infinities as 0). */
#define P2L_PCM_U8 1u
#define P2L_PCM_S16 2u
#define P2L_PCM_S24 3u /* 3 bytes a sample */
#define P2L_PCM_S32 4u
#define P2L_PCM_F32 5u
#define P2L_PCM_F64 6u

/* Speech flags: estimate vowels as well as the level. */
#define P2L_SPEECH_VOWELS 1u

/* Vowels, in the order p2l_speech_vowels writes their weights. */
#define P2L_VOWEL_A 0u
#define P2L_VOWEL_I 1u
#define P2L_VOWEL_U 2u
#define P2L_VOWEL_E 3u
#define P2L_VOWEL_O 4u
#define P2L_VOWEL_SILENCE 5u

/* A speech for audio of [sample_rate] Hz (8,000..384,000) and [channels] channels (1..32). NULL
 * with a message in [error] (when not NULL and [error_capacity] is not 0) for values out of range or
 * unknown flags. */
P2L_API P2lSpeech *p2l_speech_create(uint32_t sample_rate, uint32_t channels, uint32_t flags, char *error,
                                     size_t error_capacity);
/* A speech holding a whole audio file (WAV, FLAC or OGG/Vorbis; 8/16/24/32-bit integer or 32/64-bit
 * float samples; at most 20 minutes), from a path or from memory, its end already marked. NULL with a
 * message naming the problem for anything else: no such file, a truncated file, a file that is no
 * audio, an unsupported codec. */
P2L_API P2lSpeech *p2l_speech_load_file(const char *path, uint32_t flags, char *error, size_t error_capacity);
P2L_API P2lSpeech *p2l_speech_load_memory(const uint8_t *bytes, size_t len, uint32_t flags, char *error,
                                          size_t error_capacity);
/* Frees [speech]; NULL is ignored. */
P2L_API void p2l_speech_free(P2lSpeech *speech);

/* Appends [frames] frames of [format] (P2L_PCM_*). False, taking nothing, for an unknown format, NULL
 * samples, audio after p2l_speech_end, more than 2^25 frames waiting, or no memory;
 * p2l_speech_error then says which. */
P2L_API bool p2l_speech_push(P2lSpeech *speech, const void *samples, size_t frames, uint32_t format);
/* No more audio will come: p2l_speech_finished turns true once the last sample is consumed. */
P2L_API void p2l_speech_end(P2lSpeech *speech);
/* Why the last refused push failed; "" when none failed. Valid until the next call on [speech]. */
P2L_API const char *p2l_speech_error(const P2lSpeech *speech);
/* Advances the speech's clock by [dt] seconds (negative or NaN: 0) and measures what it passed. */
P2L_API void p2l_speech_update(P2lSpeech *speech, double dt);
/* Back to time 0 with nothing pushed. */
P2L_API void p2l_speech_reset(P2lSpeech *speech);
/* The level times the gain (1 until set), clamped to 0..1: the mouth's opening. */
P2L_API float p2l_speech_level(const P2lSpeech *speech);
/* False, changing nothing, for a negative or non-finite gain. */
P2L_API bool p2l_speech_set_gain(P2lSpeech *speech, float gain);
/* The vowel weights (A, I, U, E, O, silence; summing to 1) into [weights] (6 floats; may be NULL);
 * returns the heaviest (P2L_VOWEL_*). Without P2L_SPEECH_VOWELS: silence, weight 1. */
P2L_API uint32_t p2l_speech_vowels(const P2lSpeech *speech, float *weights);
/* Seconds of audio consumed, seconds pushed and waiting, whether the speech ended and all of it was
 * consumed, and how far the vowel estimate lags the clock in seconds (0 without vowels). */
P2L_API double p2l_speech_time(const P2lSpeech *speech);
P2L_API double p2l_speech_buffered(const P2lSpeech *speech);
P2L_API bool p2l_speech_finished(const P2lSpeech *speech);
P2L_API double p2l_speech_latency(const P2lSpeech *speech);
/* The speech's sample rate and channel count (fixed at creation). */
P2L_API uint32_t p2l_speech_rate(const P2lSpeech *speech);
P2L_API uint32_t p2l_speech_channels(const P2lSpeech *speech);

/* Hands [speech]'s level and, with P2L_SPEECH_VOWELS, its vowels to [rig]'s mouth for its next
 * updates (lip sync must be on: P2L_LIP_SYNC). */
P2L_API void p2l_speak(P2lRig *rig, const P2lSpeech *speech);

/* The mouth's slots: the opening (the rig's LipSync role), the form (MouthForm role) and one
 * parameter per vowel (roles VowelA..VowelO). Cubism imports bind ParamMouthForm and Cubism's
 * MotionSync parameters ParamA..ParamO to them. */
#define P2L_MOUTH_OPEN 0u
#define P2L_MOUTH_FORM 1u
#define P2L_MOUTH_A 2u
#define P2L_MOUTH_I 3u
#define P2L_MOUTH_U 4u
#define P2L_MOUTH_E 5u
#define P2L_MOUTH_O 6u
/* Binds [parameter] to [slot] in place of the role's parameters (-1: the role's again). False,
 * changing nothing, for no such slot or parameter. */
P2L_API bool p2l_mouth_bind(P2lRig *rig, uint32_t slot, int32_t parameter);
/* The parameters [slot] drives, as p2l.h's array calls fill arrays. */
P2L_API uint32_t p2l_mouth_parameters(const P2lRig *rig, uint32_t slot, uint32_t *out, uint32_t capacity);

/* How lip sync's opening meets what clips and expressions left in the mouth (docs/RUNTIME.md "Lip
 * sync and vowels"): P2L_LIP_FLOOR max(value, opening), the original runtime's rule and the default
 * for p2lrt's own rigs; P2L_LIP_ADD value + 0.8 x opening, Cubism's Framework and the default for
 * rigs that play by its rules (Cubism imports); P2L_LIP_SET the opening alone. */
#define P2L_LIP_FLOOR 0u
#define P2L_LIP_ADD 1u
#define P2L_LIP_SET 2u
/* False, changing nothing, for an unknown mix. */
P2L_API bool p2l_set_lip_mix(P2lRig *rig, uint32_t mix);
/* The rig's mix; P2L_LIP_FLOOR for NULL. */
P2L_API uint32_t p2l_lip_mix(const P2lRig *rig);

#ifdef __cplusplus
}
#endif

#endif
