// Writes the cases the WebAssembly module is checked against (web/test/conformance.mjs):
// random rigs (every kind of content, extension chunks included) as .p2lrt files, and next to
// each what the native C API gives for it - poses set with p2l_set_parameter, evaluated in
// Cubism mode and with every advanced feature on, then a few p2l_update steps - with every
// float printed so that it reads back to the same bits. With the Cubism fixtures' list
// (tests/cubism/fixtures/LIST.txt) and a folder of their models (make_fixture_mocs.sh), each
// fixture's moc3 too, imported under Cubism's rules (musl's trigonometry, four-point warps and
// all), as cases cubism-NAME; a fixture that does not import is skipped when fixtures/KNOWN.txt
// lists it (e.g. a moc3 version p2lrt does not import yet), an error otherwise.
// And the speech curves of tests/audio/data/speech_*.wav (each WAV's 16-bit samples pushed as
// PCM, with vowels, at 60 updates a second: level and vowel weights), as speech-NAME.json, for
// web/test/speech.mjs.
//   p2l_make_wasm_cases OUT_DIR [COUNT] [CUBISM_FIXTURES_DIR MOC_DIR]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "p2l/format.hpp"
#include "p2l/import.hpp"
#include "p2l/p2l.h"
#include "p2l/p2l_speech.h"
#include "audio/wav_data.hpp"
#include "random_rig.hpp"

namespace {

void put_floats(std::ofstream& out, const float* v, std::size_t n) {
  out << "[";
  char text[32];
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v[i]));
    out << (i ? "," : "") << text;
  }
  out << "]";
}

// Every mesh's vertices, opacity and draw order, and the render order, as one JSON object.
void put_state(std::ofstream& out, const P2lRig* rig) {
  const std::uint32_t meshes = p2l_mesh_count(rig);
  out << "{\"vertices\":[";
  for (std::uint32_t m = 0; m < meshes; ++m) {
    if (m) out << ",";
    put_floats(out, p2l_mesh_vertices(rig, m), std::size_t{p2l_mesh_vertex_count(rig, m)} * 2);
  }
  std::vector<float> opacity(meshes), order(meshes);
  for (std::uint32_t m = 0; m < meshes; ++m) {
    opacity[m] = p2l_mesh_opacity(rig, m);
    order[m] = p2l_mesh_draw_order(rig, m);
  }
  out << "],\"opacity\":";
  put_floats(out, opacity.data(), meshes);
  out << ",\"draw_order\":";
  put_floats(out, order.data(), meshes);
  std::vector<std::uint32_t> render(meshes);
  const std::uint32_t n = p2l_render_order(rig, render.data(), meshes);
  out << ",\"render_order\":[";
  for (std::uint32_t i = 0; i < n && i < meshes; ++i) out << (i ? "," : "") << render[i];
  out << "]}";
}

// Writes STEM.p2lrt and STEM.json (the native results) for one file.
bool write_case(const std::filesystem::path& dir, const std::string& stem, const std::vector<std::uint8_t>& bytes, std::uint64_t seed) {
  std::ofstream(dir / (stem + ".p2lrt"), std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  char error[256];
  P2lRig* rig = p2l_rig_load(bytes.data(), bytes.size(), error, sizeof error);
  if (!rig) {
    std::fprintf(stderr, "%s does not load: %s\n", stem.c_str(), error);
    return false;
  }
  const std::uint32_t parameters = p2l_parameter_count(rig);
  p2l_test::SplitMix64 random(seed * 7919);
  std::ofstream out(dir / (stem + ".json"));
  out << "{\"available\":" << p2l_advanced_available(rig) << ",\"runs\":[";
  bool first = true;
  // Cubism mode, each feature the file carries alone, then all of them: a difference then
  // names the feature it comes from.
  const std::uint32_t available = p2l_advanced_available(rig);
  std::vector<std::uint32_t> modes;
  for (const std::uint32_t bits : {0u, 1u, 2u, 4u, 12u, 15u})
    if (std::find(modes.begin(), modes.end(), bits & available) == modes.end()) modes.push_back(bits & available);
  for (const std::uint32_t advanced : modes) {
    p2l_set_advanced(rig, advanced);
    for (int k = 0; k < 4; ++k) {
      // A pose within and beyond each range, then an evaluation and two updates.
      std::vector<float> pose(parameters);
      for (std::uint32_t p = 0; p < parameters; ++p) {
        float lo = 0, hi = 0, def = 0;
        p2l_parameter_range(rig, p, &lo, &hi, &def);
        const double u = static_cast<double>(random.next() >> 11) / 9007199254740992.0;
        pose[p] = static_cast<float>(lo - 0.2 * (hi - lo) + u * 1.4 * (hi - lo));
        p2l_set_parameter(rig, p, pose[p]);
      }
      p2l_evaluate(rig);
      out << (first ? "" : ",") << "{\"advanced\":" << advanced << ",\"pose\":";
      first = false;
      put_floats(out, pose.data(), pose.size());
      out << ",\"evaluate\":";
      put_state(out, rig);
      p2l_update(rig, 1.0f / 60.0f);
      p2l_update(rig, 1.0f / 30.0f);
      out << ",\"update\":";
      put_state(out, rig);
      out << "}";
    }
  }
  out << "]}\n";
  p2l_rig_free(rig);
  return true;
}

// speech-NAME.json: the level and the six vowel weights after each update, as the C API gives them.
bool write_speech(const std::filesystem::path& dir, const std::filesystem::path& wav) {
  // espeak-ng's 16-bit mono samples, pushed as PCM as web/test/speech.mjs pushes them.
  const p2l_test::WavData data = p2l_test::wav_data(wav);
  char error[256] = {};
  P2lSpeech* speech = p2l_speech_create(22050, 1, P2L_SPEECH_VOWELS, error, sizeof error);
  if (speech == nullptr || data.bits != 16 || data.channels != 1 || data.rate != 22050 || data.bytes.size() < 2 ||
      !p2l_speech_push(speech, data.bytes.data(), data.bytes.size() / 2, P2L_PCM_S16)) {
    std::fprintf(stderr, "%s: no speech: %s\n", wav.c_str(), error);
    p2l_speech_free(speech);
    return false;
  }
  p2l_speech_end(speech);
  std::vector<float> levels, vowels;
  while (!p2l_speech_finished(speech)) {
    p2l_speech_update(speech, 1.0 / 60.0);
    levels.push_back(p2l_speech_level(speech));
    float w[6];
    p2l_speech_vowels(speech, w);
    vowels.insert(vowels.end(), w, w + 6);
  }
  p2l_speech_free(speech);
  std::ofstream out(dir / ("speech-" + wav.stem().string() + ".json"));
  out << "{\"wav\":\"" << std::filesystem::absolute(wav).string() << "\",\"levels\":";
  put_floats(out, levels.data(), levels.size());
  out << ",\"vowels\":";
  put_floats(out, vowels.data(), vowels.size());
  out << "}\n";
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: p2l_make_wasm_cases OUT_DIR [COUNT] [CUBISM_FIXTURES_DIR MOC_DIR]\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const int count = argc > 2 ? std::atoi(argv[2]) : 100;
  std::filesystem::create_directories(dir);
  p2l_test::RandomRigOptions options;
  options.non_core = true;
  options.extensions = true;
  for (int seed = 1; seed <= count; ++seed) {
    const p2l::WriteResult written = p2l::write(p2l_test::make_random_rig(static_cast<std::uint64_t>(seed), options));
    if (!written) {
      std::fprintf(stderr, "seed %d does not write: %s\n", seed, written.error.to_string().c_str());
      return 1;
    }
    if (!write_case(dir, "rig-" + std::to_string(seed), written.bytes, static_cast<std::uint64_t>(seed))) return 1;
  }
  int cubism = 0;
  if (argc > 4) {
    const std::filesystem::path fixtures = argv[3], mocs = argv[4];
    std::ifstream list(fixtures / "LIST.txt");
    if (!list) {
      std::fprintf(stderr, "%s/LIST.txt cannot be read\n", fixtures.c_str());
      return 1;
    }
    std::set<std::string> known;  // fixtures/KNOWN.txt: dumps p2lrt is known not to match
    std::ifstream known_list(fixtures / "KNOWN.txt");
    std::string line;
    while (std::getline(known_list, line))
      if (!line.empty() && line[0] != '#') known.insert(line.substr(0, line.find_first_of(" \t")));
    while (std::getline(list, line)) {
      if (line.empty() || line[0] == '#') continue;
      const std::string name = line.substr(0, line.find_first_of(" \t"));
      std::ifstream in(mocs / (name + ".moc3"), std::ios::binary);
      const std::vector<std::uint8_t> moc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      p2l::ImportResult imported = p2l::import_moc3(moc, {p2l::CoreRules::Cubism});
      if (!imported && known.count(name) != 0) {
        std::fprintf(stderr, "%s does not import (KNOWN.txt): %s\n", name.c_str(), imported.error.to_string().c_str());
        continue;
      }
      if (!imported) {
        std::fprintf(stderr, "%s does not import: %s\n", name.c_str(), imported.error.to_string().c_str());
        return 1;
      }
      const p2l::WriteResult written = p2l::write(imported.rig);
      if (!written || !write_case(dir, "cubism-" + name, written.bytes, 1000 + static_cast<std::uint64_t>(cubism))) return 1;
      ++cubism;
    }
  }
  int speeches = 0;
  if (std::filesystem::is_directory("tests/audio/data"))
    for (const auto& e : std::filesystem::directory_iterator("tests/audio/data"))
      if (e.path().extension() == ".wav") {
        if (!write_speech(dir, e.path())) return 1;
        ++speeches;
      }
  std::printf("wrote %d random rigs, %d Cubism fixtures and %d speech curves with native results to %s\n", count, cubism,
              speeches, dir.c_str());
  return 0;
}
