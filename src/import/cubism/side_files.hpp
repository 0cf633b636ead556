// One function a Cubism file kind: each reads its (already parsed) file into the rig, which
// already holds the moc3's core chunks, and appends a report line for each thing it cannot
// carry over exactly. A fatal problem is thrown as Failure (document.hpp). docs/IMPORT.md
// is the mapping table and lists what is fatal and what is a report line.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "import/cubism/document.hpp"
#include "p2l/import.hpp"
#include "p2l/rig.hpp"

namespace p2l::cubism {

// model3.json: what FileReferences names, in the order the importer reads (and hashes) it.
struct MotionRef {
  std::string group, file;
  float fade_in = -1, fade_out = -1;  // the model3 entry's; negative when it gives none
  std::string where;                  // "x.model3.json: FileReferences.Motions.Idle[0]", for messages
};
struct ExpressionRef {
  std::string name, file;
};
struct Model3 {
  std::string moc;
  std::vector<std::string> textures;
  std::string physics, pose, display_info, user_data;  // empty: none
  std::vector<ExpressionRef> expressions;
  std::vector<MotionRef> motions;
};
// One report line for each member of [object] not in [used]: "file: path.Key: not carried over".
void report_unused(const Node& object, std::initializer_list<const char*> used, ImportReport& report);

// Reports every key it does not use (Layout, Sound, unknown keys) and what motion entries
// name but the rig cannot hold (Sound, MotionSync files).
Model3 read_model3(const Node& root, ImportReport& report);

// model3.json Groups -> Rig::roles, HitAreas -> Rig::hit_areas.
void read_groups(const Node& root, Rig& rig, ImportReport& report);
// The roles Cubism's Framework gives by parameter id alone (CubismDefaultParameterId: the sample
// model's breath and drag-to-look drive ParamAngleX and the rest by name): each standard parameter
// the moc has becomes its role, unless the model3.json's groups name that role already. So do the
// mouth's: ParamMouthOpenY (LipSync, for models whose model3.json has no LipSync group, which
// Cubism's sample would leave mute), ParamMouthForm (MouthForm, also when the LipSync group holds
// it, as Haru's does: vowels shape it) and MotionSync's ParamA..ParamO (anim/mouth.hpp).
void add_standard_roles(Rig& rig);
void read_hit_areas(const Node& root, Rig& rig, ImportReport& report);
// Hit areas from [list], each naming its mesh by [id_key] and itself by [name_key] (the area's
// id and name are the name: hosts look areas up by it; an id survives stripped names).
void read_hit_area_list(const std::vector<Node>& list, const char* id_key, const char* name_key, Rig& rig, ImportReport& report);
// An expression's value for the parameter [id], or a report line when the rig has none.
void add_expression_value(const Node& id, ExpressionValue v, const Rig& rig, Expression& e, ImportReport& report);
// A pose group, or a report line when it is empty (POSE groups never are).
void add_pose_group(const Node& group, PoseGroup g, Pose& pose, ImportReport& report);

// A PNG page: embedded, or (external) referring to [reference]. Not a PNG is fatal.
Texture read_texture(std::span<const std::uint8_t> png, const std::string& reference, bool external);
// One report line for each page the moc3's meshes use that the model3.json's Textures does not
// list. Such meshes keep their page number and draw nothing, as the renderer draws a page the
// rig lacks (docs/RUNTIME.md, "Texture pages"): no page is made up for them.
void report_missing_pages(const Node& root, const Rig& rig, ImportReport& report);

void read_physics3(const Node& root, Rig& rig, ImportReport& report);
void read_pose3(const Node& root, Rig& rig, ImportReport& report);
void read_cdi3(const Node& root, Rig& rig, ImportReport& report);
void read_userdata3(const Node& root, Rig& rig, ImportReport& report);
// [cubism_playback]: the expression starts as Cubism's Framework starts one (EXPR version 2).
void read_exp3(const Node& root, const std::string& name, bool cubism_playback, Rig& rig, ImportReport& report);
// One clip named [id] and its CEXT record: events, non-parameter curves, curve fades, and the
// playback flags (Cubism's playback when [cubism_playback], unrestricted Beziers when the
// file says AreBeziersRestricted false or nothing). A clip with none of these gets no record.
void read_motion3(const Node& root, const MotionRef& ref, const std::string& id, bool cubism_playback, Rig& rig,
                  ImportReport& report);

class Sources;
// A Cubism 2 model.json (it names its .moc as "model" and has no FileReferences).
bool is_model2(const Node& root);
// The model.json [root] and the files it names into [result] (model2.cpp).
void import_model2(Sources& sources, const Node& root, ImportResult& result);
// A Cubism 2 .exp.json as expression [name]; a .pose.json as the rig's pose.
void read_exp2(const Node& root, const std::string& name, Rig& rig, ImportReport& report);
void read_pose2(const Node& root, Rig& rig, ImportReport& report);
// A Cubism 2 physics.json's hairs as the rig's HAIR pendulums (physics2.cpp).
void read_physics2(const Node& root, Rig& rig, ImportReport& report);
// The files import_model2 reads, in its order (after the model.json).
void list_model2_files(const Node& root, const std::function<void(const std::string&)>& add);

}  // namespace p2l::cubism
