// p2lrt: inspect, check, convert and author .p2lrt rigs.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <vector>

#include "p2l/format.hpp"
#include "p2l/json.hpp"
#include "p2lrt/bench_command.hpp"
#include "p2lrt/eval_command.hpp"
#include "p2lrt/import_command.hpp"
#include "p2lrt/info.hpp"
#include "p2lrt/render_command.hpp"
#include "p2lrt/speech_command.hpp"
#include "p2lrt/view/view_command.hpp"

namespace {

bool read_file(const std::string& path, std::vector<std::uint8_t>& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "p2lrt: cannot open " << path << "\n";
    return false;
  }
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

bool write_file(const std::string& path, const void* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) {
    std::cerr << "p2lrt: cannot write " << path << "\n";
    return false;
  }
  return true;
}

std::shared_ptr<const p2l::Rig> load_or_report(const std::string& path, std::vector<std::uint8_t>& bytes, bool crc,
                                               bool report_skipped = false) {
  if (!read_file(path, bytes)) return nullptr;
  p2l::LoadOptions options;
  options.verify_crc = crc;
  p2l::LoadResult r = p2l::load(bytes, options);
  if (!r) std::cerr << path << ": " << r.error.to_string() << "\n";
  // Unknown optional chunks travel in the Rig; a known tag at a newer version cannot.
  if (r && report_skipped)
    for (const auto& c : r.info.chunks)
      if (!c.known && r.rig->unknown_chunks.end() == std::find_if(r.rig->unknown_chunks.begin(),
                                                                    r.rig->unknown_chunks.end(),
                                                                    [&](const p2l::RawChunk& u) { return u.tag == c.tag; }))
        std::cerr << "dropped: " << c.tag << " version " << c.version
                  << ": a newer version of a chunk this reader knows, which it cannot write back\n";
  return r.rig;
}

struct WriteFlags {
  bool v1 = false, deflate = false, zstd = false, strip = false, publish = false;
  int level = 0;
  void add_to(CLI::App* cmd) {
    cmd->add_flag("--v1", v1, "Write the version-1 layout (core content only; reports what it drops)");
    auto* d = cmd->add_flag("--deflate", deflate, "Compress chunks with deflate where it makes them smaller");
    cmd->add_flag("--zstd", zstd, "Compress chunks with zstd where it makes them smaller")->excludes(d);
    cmd->add_flag("--strip-names", strip, "Write every name field empty (ids are kept)");
    cmd->add_flag("--publish", publish, "Smaller, lossy arrays: f16 positions and offsets, unorm16 UVs");
    cmd->add_option("--level", level, "Compression level (default: zlib 9, zstd 19)");
  }
  p2l::WriteOptions options() const {
    p2l::WriteOptions o;
    o.version = v1 ? 1 : 2;
    o.compression = deflate ? p2l::Compression::Deflate : zstd ? p2l::Compression::Zstd : p2l::Compression::None;
    o.level = level;
    o.strip_names = strip;
    o.publish = publish;
    return o;
  }
};

int write_rig(const p2l::Rig& rig, const WriteFlags& flags, const std::string& out_path) {
  p2l::WriteResult w = p2l::write(rig, flags.options());
  if (!w) {
    std::cerr << "p2lrt: cannot write " << out_path << ": " << w.error.to_string() << "\n";
    return 1;
  }
  for (const auto& d : w.dropped) std::cerr << "dropped: " << d << "\n";
  if (!write_file(out_path, w.bytes.data(), w.bytes.size())) return 1;
  std::cerr << "wrote " << out_path << " (" << w.bytes.size() << " bytes)\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"p2lrt: inspect, check, evaluate, convert and author .p2lrt rigs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("p2lrt 0.1.0, reads ") + p2l::format_support());

  std::string in_path, out_path;
  bool crc = false;

  auto* info = app.add_subcommand("info", "Show a file's header, chunk table and contents");
  info->add_option("FILE", in_path, "A .p2lrt file")->required();
  info->add_flag("--crc", crc, "Verify chunk CRCs while loading");

  auto* validate = app.add_subcommand("validate", "Load a file with every check; exit 0 when it is valid");
  validate->add_option("FILE", in_path, "A .p2lrt file")->required();
  validate->add_flag("--crc", crc, "Verify chunk CRCs");

  WriteFlags convert_flags;
  auto* convert = app.add_subcommand("convert", "Rewrite a file (version, compression, names, array codecs)");
  convert->add_option("IN", in_path, "The input .p2lrt")->required();
  convert->add_option("OUT", out_path, "The output .p2lrt")->required();
  convert_flags.add_to(convert);

  bool as_json = false;
  auto* dump = app.add_subcommand("dump", "Print a rig in its JSON form (docs/JSON.md)");
  dump->add_option("FILE", in_path, "A .p2lrt file")->required();
  dump->add_flag("--json", as_json, "JSON output (the only form for now)");
  dump->add_option("-o,--output", out_path, "Write to this file instead of standard output");

  WriteFlags build_flags;
  auto* build = app.add_subcommand("build", "Build a .p2lrt from the JSON form");
  build->add_option("JSON", in_path, "A rig in JSON form")->required();
  build->add_option("-o,--output", out_path, "The output .p2lrt")->required();
  build_flags.add_to(build);

  std::vector<std::string> settings;
  bool eval_json = false;
  auto* evaluate = app.add_subcommand("eval", "Evaluate a rig at a pose and show every mesh's opacity, order and bounds");
  evaluate->add_option("FILE", in_path, "A .p2lrt file")->required();
  evaluate->add_option("--set", settings, "PARAMETER_ID=VALUE (repeatable); the others stay at their defaults");
  evaluate->add_flag("--json", eval_json, "Every output as JSON, vertices included (canvas pixels, y down)");

  bool external_textures = false;
  auto* import = app.add_subcommand("import", "Import a Cubism model (.model3.json with its files, or a .moc3; Cubism 2: .model.json or .moc)");
  import->add_option("MODEL", in_path, "A .model3.json (with the files it names) or a .moc3; a Cubism 2 .model.json or .moc")->required();
  import->add_option("-o,--output", out_path, "The output .p2lrt")->required();
  import->add_flag("--external-textures", external_textures,
                   "Refer to the PNG files (paths relative to the output) instead of embedding them");
  std::string import_rules = "cubism";
  import->add_option("--rules", import_rules,
                     "cubism (the default): evaluate exactly as the Cubism Core (core chunks version 2); original: the "
                     "format's own rules, which the original runtime reads too, with the approximations reported")
      ->check(CLI::IsMember({"cubism", "original"}));

  p2lrt::RenderOptions render_options;
  auto* render = app.add_subcommand("render", "Draw a pose, or an animation, into PNG files");
  render_options.add_to(render);

  p2lrt::BenchOptions bench_options;
  p2lrt::SpeechOptions speech_options;
  auto* speech = app.add_subcommand("speech", "What p2lrt hears in a voice: the mouth level and vowels, frame by frame, as CSV");
  speech_options.add_to(speech);
  auto* bench = app.add_subcommand("bench", "Measure loading, evaluation, animation, rendering and memory of one rig");
  bench_options.add_to(bench);

  p2lrt::ViewOptions view_options;
  auto* view = app.add_subcommand("view", "Open a character in a window (or, with --mascot, on the desktop) and play it");
  view_options.add_to(view);

  auto* support = app.add_subcommand("support", "Print the format versions and chunks this build reads");

  CLI11_PARSE(app, argc, argv);
  std::vector<std::uint8_t> bytes;

  if (*view) return p2lrt::view(view_options);
  if (*support) {
    std::cout << p2l::format_support() << "\n";
    return 0;
  }
  if (*info) {
    if (!read_file(in_path, bytes)) return 1;
    p2l::LoadOptions options;
    options.verify_crc = crc;
    p2l::LoadResult r = p2l::load(bytes, options);
    p2lrt::print_info(std::cout, in_path, bytes, r);
    return r ? 0 : 1;
  }
  if (*validate) {
    auto rig = load_or_report(in_path, bytes, crc);
    if (!rig) return 1;
    std::cout << in_path << ": valid" << (crc ? " (CRCs verified)" : "") << "\n";
    return 0;
  }
  if (*convert) {
    auto rig = load_or_report(in_path, bytes, false, true);
    return rig ? write_rig(*rig, convert_flags, out_path) : 1;
  }
  if (*import)
    return p2lrt::import_cubism(in_path, out_path, external_textures,
                                import_rules == "original" ? p2l::CoreRules::Original : p2l::CoreRules::Cubism);
  if (*render) return p2lrt::render(render_options);
  if (*speech) return p2lrt::speech(speech_options);
  if (*bench) return p2lrt::bench(bench_options);
  if (*evaluate) {
    auto rig = load_or_report(in_path, bytes, false);
    return rig ? p2lrt::print_evaluation(std::cout, rig, settings, eval_json) : 1;
  }
  if (*dump) {
    auto rig = load_or_report(in_path, bytes, false);
    if (!rig) return 1;
    std::string json = p2l::rig_to_json(*rig);
    if (out_path.empty()) {
      std::cout << json;
      return std::cout ? 0 : 1;
    }
    return write_file(out_path, json.data(), json.size()) ? 0 : 1;
  }
  if (*build) {
    if (!read_file(in_path, bytes)) return 1;
    p2l::Rig rig;
    std::string error;
    if (!p2l::rig_from_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), rig, error)) {
      std::cerr << in_path << ": " << error << "\n";
      return 1;
    }
    return write_rig(rig, build_flags, out_path);
  }
  return 0;
}
