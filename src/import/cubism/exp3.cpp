// exp3.json -> one EXPR expression, named as the model3.json names it.
#include "import/cubism/side_files.hpp"

namespace p2l::cubism {

void read_exp3(const Node& root, const std::string& name, bool cubism_playback, Rig& rig, ImportReport& report) {
  Expression e;
  e.id = name;
  e.name = name;
  // Cubism: a missing fade is 1 s.
  e.fade_in = root.number_or("FadeInTime", 1);
  e.fade_out = root.number_or("FadeOutTime", 1);
  e.cubism_playback = cubism_playback;
  for (const Node& p : root.elements_of("Parameters")) {
    const Node id = p.at("Id");
    ExpressionValue v;
    v.value = p.at("Value").number();
    const std::string blend = p.string_or("Blend", "Add");
    if (blend == "Multiply") {
      v.blend = ExpressionBlend::Multiply;
    } else if (blend == "Overwrite") {
      v.blend = ExpressionBlend::Overwrite;
    } else if (blend != "Add") {
      // Cubism's Framework reads any other word as Add too.
      report.dropped.push_back(
          p.at("Blend").note("unknown blend " + quote_id(blend) + ", read as Add (as Cubism does)"));
    }
    add_expression_value(id, v, rig, e, report);
  }
  rig.expressions.push_back(std::move(e));
}

void add_expression_value(const Node& id, ExpressionValue v, const Rig& rig, Expression& e, ImportReport& report) {
  const std::int32_t index = rig.find_parameter(id.string());
  // Cubism sets a virtual parameter that nothing reads.
  if (index < 0) {
    report.dropped.push_back(id.note("no parameter " + quote_id(id.string()) + ": value dropped"));
    return;
  }
  v.parameter = static_cast<std::uint32_t>(index);
  e.values.push_back(v);
}

}  // namespace p2l::cubism
