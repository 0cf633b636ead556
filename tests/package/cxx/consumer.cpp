// An out-of-tree C++ host of an installed p2lrt through its CMake package
// (find_package(p2l CONFIG COMPONENTS import render), tests/package/run.sh): the same rig, the
// same pose and the same printout as consumer.c, through the C++ API, so run.sh can check that
// both agree. It also asks the Cubism importer (component import) for a model that is not there
// and checks that the error names the file.
// Usage: p2l_consumer_cxx FILE.p2lrt PARAMETER VALUE
#include <p2l/cubism.hpp>
#include <p2l/eval.hpp>
#include <p2l/format.hpp>
#include <p2l/render.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s FILE.p2lrt PARAMETER VALUE\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const p2l::LoadResult loaded = p2l::load(bytes);
  if (!loaded) {
    std::fprintf(stderr, "%s: %s\n", argv[1], loaded.error.to_string().c_str());
    return 1;
  }
  const p2l::ModelResult model = p2l::Model::create(loaded.rig);
  if (!model) {
    std::fprintf(stderr, "%s: %s\n", argv[1], model.error.to_string().c_str());
    return 1;
  }
  const p2l::Rig& rig = model.model->rig();
  p2l::Instance instance(model.model);
  bool found = false;
  for (std::size_t i = 0; i < rig.parameters.size(); ++i) {
    if (rig.parameters[i].id == argv[2]) {
      instance.parameters()[i] = std::strtof(argv[3], nullptr);
      found = true;
    }
  }
  if (!found) {
    std::fprintf(stderr, "no parameter %s\n", argv[2]);
    return 1;
  }
  instance.evaluate();
  std::printf("meshes %zu, parameters %zu\n", rig.meshes.size(), rig.parameters.size());
  for (std::uint32_t mesh = 0; mesh < rig.meshes.size(); ++mesh) {
    std::printf("%s", rig.meshes[mesh].id.c_str());
    for (const float v : instance.vertices(mesh)) std::printf(" %.9g", v);
    std::printf("\n");
  }

  p2l::Renderer renderer(model.model);
  std::vector<std::uint8_t> pixels(128 * 128 * 4);
  if (!renderer.render(instance, pixels.data(), 128, 128, nullptr, p2l::kRenderStraight)) {
    std::fprintf(stderr, "render failed\n");
    return 1;
  }
  std::size_t drawn = 0;
  for (std::size_t i = 0; i < 128 * 128; ++i) drawn += pixels[4 * i + 3] != 0;
  std::fprintf(stderr, "consumer.cpp: %zu of %d pixels drawn\n", drawn, 128 * 128);

  const p2l::ImportResult imported = p2l::import_cubism("no_such_model.model3.json");
  const std::string message = imported.error.to_string();
  std::fprintf(stderr, "consumer.cpp: the importer says: %s\n", message.c_str());
  if (imported || message.find("no_such_model.model3.json") == std::string::npos) return 1;
  return drawn > 0 && drawn < 128 * 128 ? 0 : 1;
}
