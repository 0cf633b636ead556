#include "p2lrt/speech_command.hpp"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>

#include "p2l/audio.hpp"

namespace p2lrt {

void SpeechOptions::add_to(CLI::App* command) {
  command->add_option("FILE", input, "A voice: WAV, FLAC or OGG/Vorbis")->required();
  command->add_option("--fps", fps, "Updates per second (default 60)");
  command->add_option("--gain", gain, "The level is the RMS times this, clamped to 0..1 (default 1)");
  command->add_flag("--vowels", vowels, "Estimate the vowels too");
}

int speech(const SpeechOptions& o) {
  if (!(o.fps > 0.0f && o.fps <= 1000.0f) || !(o.gain >= 0.0f && std::isfinite(o.gain))) {
    std::cerr << "p2lrt speech: --fps must be in (0, 1000] and --gain finite and >= 0\n";
    return 2;
  }
  const p2l::AudioFile file = p2l::decode_audio_file(o.input);
  if (!file) {
    std::cerr << "p2lrt speech: " << file.error << "\n";
    return 1;
  }
  p2l::Speech voice(file.sample_rate, file.channels, {.vowels = o.vowels, .gain = o.gain});
  if (!voice.push(file.samples)) {
    std::cerr << "p2lrt speech: " << voice.error() << "\n";
    return 1;
  }
  voice.end();
  std::fprintf(stderr, "%s: %s, %u Hz, %u channel%s, %.3f s; %.0f updates a second", o.input.c_str(), file.format.c_str(),
               file.sample_rate, file.channels, file.channels == 1 ? "" : "s", file.seconds(), static_cast<double>(o.fps));
  if (o.vowels) std::fprintf(stderr, "; vowels, lagging by %.1f ms (the window's centre)", voice.vowel_latency() * 1e3);
  std::fprintf(stderr, "\n");
  std::printf(o.vowels ? "frame,time,level,A,I,U,E,O,silence,vowel\n" : "frame,time,level\n");
  const double dt = 1.0 / static_cast<double>(o.fps);
  for (std::size_t k = 1; !voice.finished(); ++k) {
    voice.update(dt);
    std::printf("%zu,%.4f,%.5f", k, voice.time(), static_cast<double>(voice.level()));
    if (o.vowels) {
      for (const float w : voice.vowels()) std::printf(",%.4f", static_cast<double>(w));
      std::printf(",%s", p2l::vowel_name(voice.vowel()));
    }
    std::printf("\n");
  }
  return 0;
}

}  // namespace p2lrt
