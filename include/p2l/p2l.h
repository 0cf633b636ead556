/*
 * p2l.h: the C interface of p2lrt, binary compatible with the original .p2lrt runtime's ABI 1.4
 * for the functions declared here (a host built against the original header links this library).
 *
 * Usage. Load a file into a rig handle, set parameter values, call p2l_evaluate, then read each
 * mesh's deformed vertices (canvas pixels, y pointing down) and draw the meshes in the order
 * p2l_render_order gives, back to front. Several characters drawn from one file share it through a
 * model: p2l_model_load once, then p2l_rig_create for each character; p2l_rig_load does both steps.
 *
 * Lifetimes. Strings and arrays that describe the file (ids, names, UVs, indices, texture bytes)
 * stay valid until the handle they came from is freed (for a model, until the model and every rig
 * created from it are freed). Arrays describing an evaluation (vertices, current values) are
 * rewritten by the next p2l_evaluate on that rig.
 *
 * Defaults. Every function accepts a NULL handle and then returns zero, false or NULL and writes
 * nothing. On a working handle, an index past the end gives NULL for a string or pointer, -1 for an
 * index or a mode, NaN for a float value and false for a function that reports success; functions
 * that fill an array return the total count and copy at most [capacity] items into [out], which may
 * be NULL to ask for the count alone.
 *
 * Failures. No C++ exception, abort or undefined behaviour crosses this interface. If a call on a
 * rig fails inside the runtime (out of memory, or an internal error), it returns as it would for a
 * NULL handle, the rig is marked failed (p2l_rig_failure says why, and the log hears of it), and
 * from then on the rig behaves as a NULL handle until p2l_rig_free.
 *
 * Threads. A model never changes and may be used by rigs on any number of threads. One rig must be
 * used by one thread at a time, reading calls included; distinct rigs may run concurrently.
 * p2l_model_free may be called while the model's rigs still run on other threads (they keep its
 * data alive), but not while another thread is inside a call with the same model handle.
 *
 * Drawing. Textures hold straight alpha. A mesh's colour is its texel with the multiply colour
 * applied, then the screen colour, then scaled by the mesh opacity and the mask; the blend modes
 * (P2L_BLEND_*) and alpha blend modes (P2L_ALPHA_*) are Cubism 5.3's, composited by the formulas
 * of the Cubism 5 R5 Framework's blend shaders (docs/RUNTIME.md, "Compositing"). Hosts that isolate groups draw p2l_render_commands, where an isolated
 * part's meshes are drawn into a layer that is then composited by the part's group settings
 * (p2l_part_group, p2l_part_masks, p2l_part_composite); other hosts draw p2l_render_order.
 */
#ifndef P2L_P2L_H
#define P2L_P2L_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* P2L_API marks what the shared library exports; everything else in it stays hidden. */
#if defined(_WIN32)
#define P2L_API
#elif defined(__GNUC__)
#define P2L_API __attribute__((visibility("default")))
#else
#define P2L_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version. The major number changes when a declared function changes or is removed, the minor
 * number when functions are added. A host compiled against this header can use any library whose
 * p2l_abi_version() satisfies P2L_ABI_COMPATIBLE. */
#define P2L_ABI_VERSION_MAJOR 1
#define P2L_ABI_VERSION_MINOR 4
#define P2L_ABI_VERSION ((P2L_ABI_VERSION_MAJOR << 16) | P2L_ABI_VERSION_MINOR)
#define P2L_ABI_COMPATIBLE(v) (((v) >> 16) == P2L_ABI_VERSION_MAJOR && ((v) & 0xffffu) >= P2L_ABI_VERSION_MINOR)
/* The ABI this library implements: major in the high 16 bits, minor in the low 16. */
P2L_API uint32_t p2l_abi_version(void);

/* A rig: one character's parameters and last evaluation. */
typedef struct P2lRig P2lRig;
/* A loaded file that any number of rigs share, read-only. */
typedef struct P2lModel P2lModel;

/* Diagnostics. The runtime reports failed loads and failed rigs to the function given here, with
 * [user] passed back unchanged; NULL switches reporting off. Safe to call from any thread at any
 * time; the function is called on the thread where the failure happens, possibly concurrently. */
#define P2L_LOG_ERROR 0
#define P2L_LOG_WARNING 1
typedef void (*P2lLog)(int32_t level, const char *message, void *user);
P2L_API void p2l_set_log(P2lLog log, void *user);
/* A host allocator for all of the runtime's memory. This build takes its memory from the C++
 * runtime (operator new and malloc) and has no host-allocator support: the call changes nothing
 * and always returns false. */
typedef void *(*P2lAllocate)(size_t size, size_t align, void *user);
typedef void (*P2lFree)(void *pointer, size_t size, size_t align, void *user);
P2L_API bool p2l_set_allocator(P2lAllocate allocate, P2lFree free, void *user);

/* Loading. p2l_rig_load reads [len] bytes of a .p2lrt file (format version 1 or 2) and returns a
 * rig at its default pose, already evaluated (a rig under Cubism's rules as the Core makes a model:
 * with the parts' saved visibility; its part poses apply from the first update). The bytes are
 * copied: the caller may free them as soon as the call returns. On failure it returns NULL and, when [error] is not NULL and [error_capacity]
 * is not 0, writes a NUL-terminated message into it, cut to fit. */
P2L_API P2lRig *p2l_rig_load(const uint8_t *bytes, size_t len, char *error, size_t error_capacity);
/* Load flag: verify the CRC of every chunk whose table entry carries one. */
#define P2L_LOAD_VERIFY_CRC 1u
/* p2l_rig_load with load flags (P2L_LOAD_VERIFY_CRC or 0). */
P2L_API P2lRig *p2l_rig_load_ex(const uint8_t *bytes, size_t len, uint32_t flags, char *error,
                                size_t error_capacity);
/* Reads a file into a model for p2l_rig_create, with the flags and error reporting of
 * p2l_rig_load_ex. */
P2L_API P2lModel *p2l_model_load(const uint8_t *bytes, size_t len, uint32_t flags, char *error,
                                 size_t error_capacity);
/* Releases the caller's reference to [model]. Rigs created from it hold their own reference, so it
 * may be freed before them. NULL is ignored. */
P2L_API void p2l_model_free(P2lModel *model);
/* A new rig on [model], at its default pose and evaluated once. NULL, with a message in [error],
 * when [model] is NULL or the rig cannot be set up. */
P2L_API P2lRig *p2l_rig_create(const P2lModel *model, char *error, size_t error_capacity);
/* What this library reads: the format major versions, then each chunk tag with the newest chunk
 * version understood, e.g. "1,2 STRS/1 CANV/1 ...". A static string. */
P2L_API const char *p2l_format_support(void);
/* Frees [rig]; NULL is ignored. */
P2L_API void p2l_rig_free(P2lRig *rig);
/* Why [rig] failed (after which it behaves as NULL), or NULL while it works. */
P2L_API const char *p2l_rig_failure(const P2lRig *rig);
/* This library's version, "major.minor.patch"; a static string. */
P2L_API const char *p2l_version(void);
/* Canvas size in pixels. */
P2L_API void p2l_canvas(const P2lRig *rig, float *width, float *height);
/* The canvas position of the model origin in pixels, and the pixels per model unit (0 when the
 * file does not give one). */
P2L_API void p2l_canvas_origin(const P2lRig *rig, float *x, float *y, float *pixels_per_unit);

/* Parameters */
P2L_API uint32_t p2l_parameter_count(const P2lRig *rig);
P2L_API const char *p2l_parameter_id(const P2lRig *rig, uint32_t index);
P2L_API const char *p2l_parameter_name(const P2lRig *rig, uint32_t index);
/* The index of the parameter whose id equals [id] exactly, or -1. */
P2L_API int32_t p2l_parameter_index(const P2lRig *rig, const char *id);
/* The parameter's range and default value; false when there is no such parameter. */
P2L_API bool p2l_parameter_range(const P2lRig *rig, uint32_t index, float *min, float *max, float *default_value);
/* Parameter flags: P2L_PARAMETER_REPEAT when values outside the range wrap around it,
 * P2L_PARAMETER_BLEND_SHAPE when the parameter drives blend shapes. 0 for no such parameter. */
#define P2L_PARAMETER_REPEAT 1u
#define P2L_PARAMETER_BLEND_SHAPE 2u
P2L_API uint32_t p2l_parameter_flags(const P2lRig *rig, uint32_t index);
/* The values, in ascending order, that a parameter panel snaps this parameter to. */
P2L_API uint32_t p2l_parameter_snaps(const P2lRig *rig, uint32_t index, float *out, uint32_t capacity);
/* The host's pose: p2l_parameter_count writable values, one per parameter, that every evaluation and
 * update starts from. Clips, expressions, behaviors and physics apply over a copy, so additive
 * layers never pile up here. */
P2L_API float *p2l_parameter_values(P2lRig *rig);
/* The p2l_parameter_count values the last evaluation used, after every layer; read-only. The
 * evaluation reads each of them clamped to its parameter's range (wrapped around it for a repeat
 * parameter), and they are stored here as the last layer to write them left them:
 * - clips and expressions played by Cubism's rules (p2l_set_cubism_playback, on by default, and a
 *   file that marks them: every imported Cubism model) store what they write in the range,
 *   clamped (wrapped for a repeat parameter), as Cubism's model stores every write, and pendulum
 *   physics clamps its outputs: where one of them wrote last, the value is in the range, and after
 *   an expression that pushes a parameter past its range it is the end of the range, the value
 *   Cubism's getParameterValue gives;
 * - the host's pose (p2l_parameter_values), host overrides, behaviors, and clips and expressions
 *   played by p2lrt's own rules store their values raw: where one of them wrote last, the value
 *   may lie outside the range.
 * p2l_evaluate stores the host's pose as it is. */
P2L_API const float *p2l_parameter_current(const P2lRig *rig);
/* Sets one value of the host's pose; an index past the end is ignored. */
P2L_API void p2l_set_parameter(P2lRig *rig, uint32_t index, float value);
/* The parameters given [role] (e.g. "EyeBlink", "LipSync") by the file, in file order. */
P2L_API uint32_t p2l_role_parameters(const P2lRig *rig, const char *role, uint32_t *out, uint32_t capacity);

/* Parameter panel. Joysticks are parameter pairs shown as one two-dimensional control; [out] gets
 * two indices (horizontal, vertical) per pair, [capacity] counts pairs, and the pair count is
 * returned. The panel's nodes form a tree stored in pre-order: every node is followed by its
 * children. */
P2L_API uint32_t p2l_gui_joysticks(const P2lRig *rig, uint32_t *out, uint32_t capacity);
P2L_API uint32_t p2l_gui_node_count(const P2lRig *rig);
/* Node [index]: the parameter a leaf controls (-1 for a group), its number of direct children and
 * whether it is initially expanded; false when there is no such node. */
P2L_API bool p2l_gui_node(const P2lRig *rig, uint32_t index, int32_t *parameter, uint32_t *children, bool *open);
P2L_API const char *p2l_gui_node_id(const P2lRig *rig, uint32_t index);
P2L_API const char *p2l_gui_node_name(const P2lRig *rig, uint32_t index);
/* Node [index]'s label: 0 none, 1 a named preset (its name in [preset]), 2 a custom colour (in
 * [argb]). [preset] receives an empty string and [argb] 0 when they do not apply. */
P2L_API int32_t p2l_gui_node_label(const P2lRig *rig, uint32_t index, const char **preset, uint32_t *argb);

/* Evaluation */
/* Evaluates the rig at the host's pose alone (p2l_parameter_values): vertices, opacities, colours,
 * draw and render order, then the part poses' opacities, the host's opacity and colour settings and
 * the change flags. What clips, expressions, behaviors and physics added at earlier updates is not
 * kept. */
P2L_API void p2l_evaluate(P2lRig *rig);
/* Advances clips, expressions, behaviors, part poses and physics by [dt] seconds (negative or NaN:
 * 0) over a copy of the host's pose, in this order: clips, expressions, host overrides, behaviors,
 * poses, physics; then evaluates as p2l_evaluate does. Allocates nothing. */
P2L_API void p2l_update(P2lRig *rig, float dt);
/* p2l_update running only the stages in [stages], in the same order; the others neither advance
 * nor apply. P2L_STAGE_SIM steps advanced mode's vertex simulations. */
#define P2L_STAGE_CLIPS 1u
#define P2L_STAGE_EXPRESSIONS 2u
#define P2L_STAGE_BEHAVIORS 4u
#define P2L_STAGE_POSES 8u
#define P2L_STAGE_PHYSICS 16u
#define P2L_STAGE_SIM 32u
#define P2L_STAGE_ALL 63u
P2L_API void p2l_update_stages(P2lRig *rig, float dt, uint32_t stages);
/* The host's layer (face tracking and the like): after clips and expressions and before behaviors
 * and physics, parameter [index] moves toward [value] by [weight], clamped to 0..1 (1 replaces, 0
 * takes the layer off). False, changing nothing, for no such parameter or a non-finite value. */
P2L_API bool p2l_set_parameter_override(P2lRig *rig, uint32_t index, float value, float weight);
P2L_API void p2l_clear_parameter_overrides(P2lRig *rig);
/* Physics (Cubism's pendulums): back to rest; wind on every pendulum besides gravity, in physics
 * units (x right, y down), as Cubism's physics wind; and Cubism's stabilization, which hangs every
 * pendulum at rest under the last evaluation's values and evaluates again. */
P2L_API void p2l_physics_reset(P2lRig *rig);
P2L_API void p2l_physics_wind(P2lRig *rig, float x, float y);
P2L_API void p2l_physics_stabilize(P2lRig *rig);
/* The rig's own opacity, clamped to 0..1 (1 until set; non-finite values are ignored). It
 * multiplies every mesh's opacity from the next evaluation, on top of the opacity clips set;
 * p2l_opacity gives the product at the last evaluation. */
P2L_API void p2l_set_opacity(P2lRig *rig, float opacity);
P2L_API float p2l_opacity(const P2lRig *rig);
/* Colours replacing a mesh's evaluated multiply and screen colours from the next evaluation, three
 * floats each; a NULL multiply means white and a NULL screen means black, and both NULL removes the
 * replacement. The part version applies to every mesh under the part (at any depth) that has no
 * colours of its own set; the nearest part wins. False, changing nothing, for no such mesh or part or
 * a colour that is not finite. */
P2L_API bool p2l_set_mesh_colors(P2lRig *rig, uint32_t index, const float *multiply, const float *screen);
P2L_API bool p2l_set_part_colors(P2lRig *rig, uint32_t index, const float *multiply, const float *screen);

/* Behaviors, driving the parameters of the file's roles (EyeBlink, Breath, AngleX, ...): any of
 * P2L_BLINK | P2L_BREATH | P2L_LOOK | P2L_LIP_SYNC; blinking and breathing start on. */
#define P2L_BLINK 1u
#define P2L_BREATH 2u
#define P2L_LOOK 4u
#define P2L_LIP_SYNC 8u
P2L_API void p2l_behaviors(P2lRig *rig, uint32_t flags);
/* Seeds the blink timing. Each rig after the first one of a process starts with a seed of its own,
 * so characters side by side blink apart; seed explicitly for the same blinks on every run. */
P2L_API void p2l_behavior_seed(P2lRig *rig, uint32_t seed);
/* Blink timing in seconds: the gap between blinks is drawn evenly from [interval_min,
 * interval_max], then the eyes close, stay closed and open over the three times (2..6, 0.1, 0.05,
 * 0.15 until set). False, changing nothing, for negative, non-finite or reversed times, or a zero
 * closing or opening time. */
P2L_API bool p2l_blink_settings(P2lRig *rig, float interval_min, float interval_max, float closing, float closed,
                                float opening);
/* How far breathing sways and gaze turns (1: as designed) and how fast gaze follows (1: settles in
 * about a third of a second). False, changing nothing, for negative or non-finite values. */
P2L_API bool p2l_behavior_strength(P2lRig *rig, float sway, float look, float look_speed);
/* Lip sync from audio: the root mean square of [count] samples (-1..1) times [gain], clamped to
 * 0..1, becomes the mouth opening as p2l_lip_sync sets it; returns that opening. */
P2L_API float p2l_lip_sync_samples(P2lRig *rig, const float *samples, size_t count, float gain);
/* Where the character looks, each axis -1..1 (x right, y up); gaze follows, critically damped. */
P2L_API void p2l_look_at(P2lRig *rig, float x, float y);
/* The mouth opening for lip sync, 0..1, applied by the rig's lip mix (p2l_speech.h: Cubism's add for
 * Cubism imports, the original's floor otherwise). A voice: p2l_speech.h's p2l_speak. */
P2L_API void p2l_lip_sync(P2lRig *rig, float level);

/* Clips (motions) */
P2L_API uint32_t p2l_clip_count(const P2lRig *rig);
P2L_API const char *p2l_clip_id(const P2lRig *rig, uint32_t index);
P2L_API const char *p2l_clip_name(const P2lRig *rig, uint32_t index);
/* The clip's group (e.g. "Idle", "TapBody"); an empty string when it has none. */
P2L_API const char *p2l_clip_group(const P2lRig *rig, uint32_t index);
/* The clip's length in seconds, frame rate, whether it loops, and its fade times (1 second when the
 * file gives none); false for no such clip. */
P2L_API bool p2l_clip_info(const P2lRig *rig, uint32_t index, float *duration, float *fps, bool *looping,
                           float *fade_in, float *fade_out);
/* Plays clip [index] on layer 0, fading out what played there (each replaced clip finishes its
 * fade-out); -1 fades the layer out. */
P2L_API void p2l_play(P2lRig *rig, int32_t index);
/* Layer 0's clip, or -1. */
P2L_API int32_t p2l_clip_playing(const P2lRig *rig);
/* Layer 0's clip time, wrapped for a looping clip, held at the end for a one-shot. */
P2L_API float p2l_clip_time(const P2lRig *rig);
/* Moves layer 0's clip to [time] seconds; its fade-in goes on, and the events it jumps over do not
 * fire. */
P2L_API void p2l_clip_seek(P2lRig *rig, float time);
/* Whether layer 0 plays nothing or a one-shot past its end. */
P2L_API bool p2l_clip_finished(const P2lRig *rig);
/* Cubism playback (additions to ABI 1.4). Clips, expressions and poses that the file marks for it
 * (CEXT, EXPR, POSE version 2; the Cubism importer marks every imported motion) play as Cubism's
 * Web Framework plays them: a clip's first update samples time 0 at weight 0, it fades out over its
 * last fade-out seconds and is dropped when its time reaches its duration, the file's looping flag
 * is ignored, and it blends from what the clips left at the last update, which stays after it ends
 * (p2l_set_keep_clip_values; docs/RUNTIME.md "Cubism playback"). On by default; p2l_set_cubism_playback(rig, false) plays everything by p2lrt's own
 * rules instead, and like p2l_set_cubism_playback(rig, true) stops every clip, expression and pose
 * (it allocates). */
P2L_API void p2l_set_cubism_playback(P2lRig *rig, bool on);
P2L_API bool p2l_cubism_playback(const P2lRig *rig);
/* What the parameters that clips played by Cubism's rules wrote show once no clip plays or fades
 * (additions to ABI 1.4). On (the default): the last values those clips left stay until a clip
 * moves them again, as in Cubism's sample loop, which reloads the model's saved parameters at every
 * frame; the host's pose of those parameters is not read again (p2l_set_parameter_override moves
 * them, and p2l_set_cubism_playback starts everything afresh). Off: from the next update on which
 * no clip plays or fades, the host's pose shows again (p2lrt's rest state). */
P2L_API void p2l_set_keep_clip_values(P2lRig *rig, bool on);
P2L_API bool p2l_keep_clip_values(const P2lRig *rig);
/* How this rig plays clip [index]: P2L_CLIP_CUBISM when by Cubism's rules, P2L_CLIP_UNRESTRICTED
 * when its Bezier segments are unrestricted (their control times count), P2L_CLIP_LOOPING when it
 * loops. 0 for no such clip. */
#define P2L_CLIP_CUBISM 1u
#define P2L_CLIP_UNRESTRICTED 2u
#define P2L_CLIP_LOOPING 4u
P2L_API uint32_t p2l_clip_playback(const P2lRig *rig, uint32_t index);
/* Makes clip [index] loop or not on this rig from the next update (a clip played by Cubism's rules
 * loops only when set, as Cubism ignores motion3 Meta.Loop); false for no such clip. */
P2L_API bool p2l_set_clip_looping(P2lRig *rig, uint32_t index, bool looping);

/* Clip layers, as Cubism's motion managers: layer k plays one clip at a time over the layers below
 * it, at its weight (1 until set). A clip starts on a layer when [priority] is at least that of the
 * clip playing there (0 once that one finished or stopped); -1 stops the layer. False for a layer
 * past P2L_MAX_LAYERS - 1, no such clip, or a lower priority. */
#define P2L_MAX_LAYERS 16u
P2L_API bool p2l_play_layer(P2lRig *rig, uint32_t layer, int32_t index, uint32_t priority);
P2L_API bool p2l_set_layer_weight(P2lRig *rig, uint32_t layer, float weight);
/* What [layer] plays: the clip (-1 for none), its time, its priority and whether it is finished;
 * false for a layer past P2L_MAX_LAYERS - 1. */
P2L_API bool p2l_layer_state(const P2lRig *rig, uint32_t layer, int32_t *clip, float *time, uint32_t *priority,
                             bool *finished);
P2L_API void p2l_layer_seek(P2lRig *rig, uint32_t layer, float time);
/* The clip events (Cubism motion user data) the last update passed, in order: the event's text, and
 * the layer, clip and clip time it came from. A looping clip fires its events on every pass; a seek
 * fires nothing it jumps over. NULL for an index past the end. */
P2L_API uint32_t p2l_event_count(const P2lRig *rig);
P2L_API const char *p2l_event(const P2lRig *rig, uint32_t index, uint32_t *layer, int32_t *clip, float *time);

/* Expressions (Cubism exp3): parameter values added, multiplied or overwritten over the clips,
 * faded in and out with sine easing. p2l_expression plays one, fading the others out (-1 fades all
 * out); p2l_expression_add fades one in over those playing, p2l_expression_remove fades one out
 * (both false when there is nothing to do); p2l_expressions_playing lists those playing and not
 * fading out, oldest first. */
P2L_API uint32_t p2l_expression_count(const P2lRig *rig);
P2L_API const char *p2l_expression_id(const P2lRig *rig, uint32_t index);
P2L_API const char *p2l_expression_name(const P2lRig *rig, uint32_t index);
P2L_API void p2l_expression(P2lRig *rig, int32_t index);
P2L_API bool p2l_expression_add(P2lRig *rig, uint32_t index);
P2L_API bool p2l_expression_remove(P2lRig *rig, uint32_t index);
P2L_API uint32_t p2l_expressions_playing(const P2lRig *rig, uint32_t *out, uint32_t capacity);

/* Part poses (Cubism pose3): each group shows one of its parts; p2l_pose_show picks it, and the
 * updates that follow fade it in and the others out. p2l_pose_shown: the entry shown, or -1. */
P2L_API uint32_t p2l_pose_group_count(const P2lRig *rig);
P2L_API uint32_t p2l_pose_group_size(const P2lRig *rig, uint32_t group);
P2L_API bool p2l_pose_show(P2lRig *rig, uint32_t group, uint32_t entry);
P2L_API int32_t p2l_pose_shown(const P2lRig *rig, uint32_t group);
/* Switches the part poses off (their parts at opacity 1, and clips' PartOpacity curves on them do
 * nothing, as in Cubism without a pose3) or on again (starting over from each group's first
 * entry). On until set. */
P2L_API void p2l_set_pose_enabled(P2lRig *rig, bool on);
P2L_API bool p2l_pose_enabled(const P2lRig *rig);

/* Meshes */
P2L_API uint32_t p2l_mesh_count(const P2lRig *rig);
P2L_API const char *p2l_mesh_id(const P2lRig *rig, uint32_t index);
P2L_API const char *p2l_mesh_name(const P2lRig *rig, uint32_t index);
/* Vertices in the mesh; 0 for a mesh without geometry or no such mesh. */
P2L_API uint32_t p2l_mesh_vertex_count(const P2lRig *rig, uint32_t index);
/* Texture coordinates, two floats per vertex; NULL for a mesh without geometry. */
P2L_API const float *p2l_mesh_uvs(const P2lRig *rig, uint32_t index);
/* Triangle indices, three per triangle; [count] receives how many (0, with NULL returned, for a
 * mesh without geometry or no such mesh). */
P2L_API const uint32_t *p2l_mesh_indices(const P2lRig *rig, uint32_t index, uint32_t *count);
/* The mesh's texture page, or -1. */
P2L_API int32_t p2l_mesh_texture(const P2lRig *rig, uint32_t index);
/* Colour blend modes: Cubism's classic three first, then the extended ones. */
#define P2L_BLEND_NORMAL 0
#define P2L_BLEND_CUBISM_ADD 1
#define P2L_BLEND_CUBISM_MULTIPLY 2
#define P2L_BLEND_ADD 3
#define P2L_BLEND_ADD_GLOW 4
#define P2L_BLEND_DARKEN 5
#define P2L_BLEND_MULTIPLY 6
#define P2L_BLEND_COLOR_BURN 7
#define P2L_BLEND_LINEAR_BURN 8
#define P2L_BLEND_LIGHTEN 9
#define P2L_BLEND_SCREEN 10
#define P2L_BLEND_COLOR_DODGE 11
#define P2L_BLEND_OVERLAY 12
#define P2L_BLEND_SOFT_LIGHT 13
#define P2L_BLEND_HARD_LIGHT 14
#define P2L_BLEND_LINEAR_LIGHT 15
#define P2L_BLEND_HUE 16
#define P2L_BLEND_COLOR 17
/* The mesh's colour blend mode (P2L_BLEND_*), and in [culling] whether back faces are skipped;
 * -1 for no such mesh. */
P2L_API int32_t p2l_mesh_blend(const P2lRig *rig, uint32_t index, bool *culling);
/* Alpha blend modes, as in Cubism 5.3. */
#define P2L_ALPHA_OVER 0
#define P2L_ALPHA_ATOP 1
#define P2L_ALPHA_OUT 2
#define P2L_ALPHA_CONJOINT_OVER 3
#define P2L_ALPHA_DISJOINT_OVER 4
/* The mesh's alpha blend mode (P2L_ALPHA_*); -1 for no such mesh. */
P2L_API int32_t p2l_mesh_alpha_blend(const P2lRig *rig, uint32_t index);
/* The part that lists the mesh among its children, or -1. */
P2L_API int32_t p2l_mesh_part(const P2lRig *rig, uint32_t index);
/* The meshes that mask this one; [inverted] receives whether the mask is inverted. */
P2L_API uint32_t p2l_mesh_masks(const P2lRig *rig, uint32_t index, uint32_t *out, uint32_t capacity, bool *inverted);
/* The last evaluation's vertices, x and y per vertex, in canvas pixels. */
P2L_API const float *p2l_mesh_vertices(const P2lRig *rig, uint32_t index);
/* The last evaluation's opacity and draw order of the mesh. */
P2L_API float p2l_mesh_opacity(const P2lRig *rig, uint32_t index);
P2L_API float p2l_mesh_draw_order(const P2lRig *rig, uint32_t index);
/* The last evaluation's multiply and screen colours, three floats each (either may be NULL). */
P2L_API void p2l_mesh_colors(const P2lRig *rig, uint32_t index, float *multiply, float *screen);
/* Per-mesh state of the last evaluation, in the manner of Cubism's dynamic flags:
 * P2L_MESH_VISIBLE when the mesh is in the render order with an opacity above 0, and a bit for
 * each thing that differs from the evaluation before it, so that hosts upload only what changed.
 * After a rig's first evaluation every change bit is set. 0 for no such mesh. */
#define P2L_MESH_VISIBLE 1u
#define P2L_MESH_VISIBILITY_CHANGED 2u
#define P2L_MESH_OPACITY_CHANGED 4u
#define P2L_MESH_DRAW_ORDER_CHANGED 8u
#define P2L_MESH_RENDER_ORDER_CHANGED 16u
#define P2L_MESH_VERTICES_CHANGED 32u
#define P2L_MESH_COLORS_CHANGED 64u
P2L_API uint32_t p2l_mesh_changes(const P2lRig *rig, uint32_t index);
/* The meshes to draw, back to front, at the last evaluation. */
P2L_API uint32_t p2l_render_order(const P2lRig *rig, uint32_t *out, uint32_t capacity);
/* The render order with isolated groups marked: each command is a mesh index, or
 * P2L_RENDER_BEGIN_GROUP(part) starting the layer of an isolated part, or P2L_RENDER_END_GROUP
 * ending the innermost open one. */
#define P2L_RENDER_END_GROUP (-1)
#define P2L_RENDER_BEGIN_GROUP(part) (-2 - (int32_t)(part))
#define P2L_RENDER_IS_GROUP(command) ((command) <= -2)
#define P2L_RENDER_GROUP_PART(command) ((uint32_t)(-2 - (command)))
P2L_API uint32_t p2l_render_commands(const P2lRig *rig, int32_t *out, uint32_t capacity);

/* Parts */
P2L_API uint32_t p2l_part_count(const P2lRig *rig);
P2L_API const char *p2l_part_id(const P2lRig *rig, uint32_t index);
P2L_API const char *p2l_part_name(const P2lRig *rig, uint32_t index);
/* The part that lists this part among its children, or -1. */
P2L_API int32_t p2l_part_parent(const P2lRig *rig, uint32_t index);
/* Part flags as the file states them; 0 for no such part. */
#define P2L_PART_VISIBLE 1u
#define P2L_PART_SKETCH 2u
P2L_API uint32_t p2l_part_flags(const P2lRig *rig, uint32_t index);
/* How the part groups the meshes under it (P2L_GROUP_*); for an isolated group, [blend],
 * [alpha_blend] and [invert_mask] receive how its layer composites (from the draw tree when it
 * gives the group a composite, from the part otherwise). -1 for no such part. */
#define P2L_GROUP_PASS_THROUGH 0
#define P2L_GROUP_SORTED 1
#define P2L_GROUP_ISOLATED 2
P2L_API int32_t p2l_part_group(const P2lRig *rig, uint32_t index, int32_t *blend, int32_t *alpha_blend,
                               bool *invert_mask);
/* The meshes masking the part's isolated group, including every mesh under the masking parts. */
P2L_API uint32_t p2l_part_masks(const P2lRig *rig, uint32_t index, uint32_t *out, uint32_t capacity);
/* The isolated group's opacity and multiply and screen colours (three floats each) at the last
 * evaluation; false for no such part. */
P2L_API bool p2l_part_composite(const P2lRig *rig, uint32_t index, float *opacity, float *multiply, float *screen);
/* The host's opacity for the part (1 until set), which multiplies every mesh under it from the
 * next evaluation. p2l_set_part_opacity clamps it to 0..1 (a non-finite value sets 1) and returns
 * false, changing nothing, for no such part. */
P2L_API float p2l_part_opacity(const P2lRig *rig, uint32_t index);
P2L_API bool p2l_set_part_opacity(P2lRig *rig, uint32_t index, float opacity);
/* The opacity the part poses and clips gave the part at the last evaluation, which multiplies every
 * mesh under it besides the host's part opacity (for an imported Cubism model: Cubism's part
 * opacity); 1 where they give none, NaN for no such part. */
P2L_API float p2l_part_animation_opacity(const P2lRig *rig, uint32_t index);

/* Advanced mode: what the file's extension chunks (BONE, SKIN, SIMS, COLL) add over the
 * Cubism-equivalent evaluation, every feature off by default. P2L_SKIN skins meshes along their
 * bones' true arcs between baked keys (equal to the bake at every key); P2L_EXACT_LINKS moves
 * pivots keyed along a circle on it; P2L_SIM runs cloth and hair live, stepped by p2l_update at
 * each simulation's own rate (p2l_evaluate draws the last step), with their baked swing
 * parameters held at rest and their pendulums skipped; P2L_COLLISION adds the colliders (it
 * needs P2L_SIM). p2l_advanced_available gives the features the file carries; p2l_set_advanced
 * turns on those of [features] that can run (a chunk whose dependencies are missing or off stays
 * off, and the log hears why), the others off, restarts the simulations, and returns the
 * features now on (0: Cubism mode). It allocates; updates afterwards do not. */
#define P2L_SKIN 1u
#define P2L_EXACT_LINKS 2u
#define P2L_SIM 4u
#define P2L_COLLISION 8u
P2L_API uint32_t p2l_advanced_available(const P2lRig *rig);
P2L_API uint32_t p2l_set_advanced(P2lRig *rig, uint32_t features);
/* The next p2l_update starts every simulation at rest again, on the pose it finds. */
P2L_API void p2l_sim_reset(P2lRig *rig);
/* Wind every simulation feels besides its own, canvas pixels per second squared (x right, y
 * down); kept until set again, whether P2L_SIM is on or not (a non-finite value changes nothing). */
P2L_API void p2l_sim_wind(P2lRig *rig, float x, float y);
/* The colliders as the last update placed them: ax, ay, bx, by, radius a, radius b in canvas
 * pixels, six floats each, written into out up to capacity colliders; returns how many there are. */
P2L_API uint32_t p2l_sim_colliders(const P2lRig *rig, float *out, uint32_t capacity);
/* Bones a host can attach things to (BONE), and each one's canvas frame at the last evaluation
 * as an affine map [a, b, c, d, tx, ty]: x' = a x + b y + tx, y' = c x + d y + ty. A virtual
 * bone's is computed on request at the current values. False for no such bone or a warp. */
P2L_API uint32_t p2l_bone_count(const P2lRig *rig);
P2L_API const char *p2l_bone_id(const P2lRig *rig, uint32_t index);
P2L_API bool p2l_bone_transform(P2lRig *rig, uint32_t index, float *out);

/* Hit areas, named regions of the character such as "HitAreaHead". */
P2L_API uint32_t p2l_hit_area_count(const P2lRig *rig);
P2L_API const char *p2l_hit_area_id(const P2lRig *rig, uint32_t index);
P2L_API const char *p2l_hit_area_name(const P2lRig *rig, uint32_t index);
/* The first hit area, in file order, with a mesh that is visible at the last evaluation and has a
 * triangle covering canvas point ([x], [y]) (edges included), or -1. */
P2L_API int32_t p2l_hit_test(const P2lRig *rig, float x, float y);
/* The meshes that make up hit area [index]. */
P2L_API uint32_t p2l_hit_area_meshes(const P2lRig *rig, uint32_t index, uint32_t *out, uint32_t capacity);
/* The text the file attaches to the mesh as user data; an empty string when there is none. */
P2L_API const char *p2l_mesh_user_data(const P2lRig *rig, uint32_t index);
/* The file's generator information, as key-value pairs in file order. */
P2L_API uint32_t p2l_meta_count(const P2lRig *rig);
P2L_API const char *p2l_meta_key(const P2lRig *rig, uint32_t index);
P2L_API const char *p2l_meta_value(const P2lRig *rig, uint32_t index);

/* Memory for hosts that must hand the file's bytes over in the runtime's own memory (WebAssembly):
 * [len] bytes set to zero, or NULL when memory runs out. p2l_alloc(0) returns a unique non-NULL
 * pointer (or NULL when memory runs out) that must not be read or written. Release with p2l_dealloc,
 * passing the same [len]; NULL is ignored. */
P2L_API uint8_t *p2l_alloc(size_t len);
P2L_API void p2l_dealloc(uint8_t *pointer, size_t len);

/* Software rendering: draws the last evaluation into [rgba], [width] x [height] RGBA8 pixels, rows
 * top first, by the drawing rules above (masks, isolated groups, every blend mode, culling).
 * [transform] maps canvas pixels to image pixels as six floats [a, b, c, d, tx, ty]
 * (x' = a x + b y + tx, y' = c x + d y + ty); NULL fits the canvas into the image from its top left
 * corner, keeping its aspect. P2L_RENDER_STRAIGHT gives straight alpha (premultiplied otherwise);
 * P2L_RENDER_KEEP draws over what [rgba] holds instead of over transparency. Embedded PNG pages
 * decode themselves on first use (a page that does not decode is logged once and drawn as
 * transparent); other pages draw once p2l_render_texture gives them straight RGBA8 pixels (NULL takes
 * them back). False, drawing nothing, for a NULL image, a zero size or more than 2^28 pixels;
 * p2l_render_texture is false for no such page or a bad size. */
#define P2L_RENDER_STRAIGHT 1u
#define P2L_RENDER_KEEP 2u
P2L_API bool p2l_render(P2lRig *rig, uint8_t *rgba, uint32_t width, uint32_t height, const float *transform,
                        uint32_t flags);
P2L_API bool p2l_render_texture(P2lRig *rig, uint32_t page, const uint8_t *rgba, uint32_t width, uint32_t height);
/* Threads for p2l_render (an addition to ABI 1.4): the rig's frames are cut into horizontal bands
 * drawn by [threads] threads at once, the caller's included, giving the bytes one thread gives;
 * 0 takes one per processor core, 1 (the default) draws on the caller's thread alone. The threads
 * are started here and wait between frames. Returns the count now in use (1 where the platform has
 * no threads, as in WebAssembly), 0 for a NULL rig. */
P2L_API uint32_t p2l_render_threads(P2lRig *rig, uint32_t threads);
/* Framing (an addition to ABI 1.4): the transform for p2l_render that `p2lrt render` frames with,
 * six floats into [out]: the whole canvas scaled to fit [width] x [height] with its aspect kept,
 * and centred; with P2L_FRAME_DRAWN the bounds of what the last evaluation draws instead, with
 * [margin] around them (a fraction of their larger side; 0.04 is `p2lrt render --fit`'s; nothing
 * drawn: the whole canvas); with P2L_FRAME_FLIP_Y for images whose rows go bottom first (OpenGL,
 * Unity). False, writing nothing, for a NULL rig or [out], or a zero size. */
#define P2L_FRAME_DRAWN 1u
#define P2L_FRAME_FLIP_Y 2u
P2L_API bool p2l_framing(const P2lRig *rig, uint32_t width, uint32_t height, uint32_t flags, float margin, float *out);

/* Texture pages. p2l_texture_png gives an embedded PNG page's bytes, with their length in [len]
 * and the page size in [width] and [height]; for a page that is not an embedded PNG it returns
 * NULL and sets [len] to 0 (the size is still written). */
P2L_API uint32_t p2l_texture_count(const P2lRig *rig);
P2L_API const uint8_t *p2l_texture_png(const P2lRig *rig, uint32_t index, size_t *len, uint32_t *width,
                                       uint32_t *height);
/* Page [index]: [kind] 0 for embedded PNG, 1 for embedded KTX2, 2 for a file stored next to the rig,
 * or -1 for no such page; its size; its embedded bytes in [data] and [len] (NULL and 0 for a file).
 * Returns the file's path relative to the rig, or an empty string for an embedded page. */
P2L_API const char *p2l_texture_info(const P2lRig *rig, uint32_t index, int32_t *kind, uint32_t *width,
                                     uint32_t *height, const uint8_t **data, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
