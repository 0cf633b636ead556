/*
 * p2l_cubism.h: Cubism models straight into the C API of p2l.h. A model folder (MODEL.model3.json
 * with its moc3, textures, motions, expressions, physics, pose, display info and user data), or a
 * bare .moc3, becomes a rig or a model, with the same rules, report and errors as `p2lrt import`
 * (docs/IMPORT.md), read from a path or through the host's own reader (archives, app assets,
 * StreamingAssets, fetch). Library: libp2l.so, or statically the
 * Cubism import component (CMake p2l::import, libp2l_cubism.a beside libp2l.a). Additions to ABI 1.4,
 * as p2l.h's own additions are. No C++ exception, abort or undefined behaviour crosses this interface.
 */
#ifndef P2L_P2L_CUBISM_H
#define P2L_P2L_CUBISM_H

#include "p2l/p2l.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Import flags. P2L_IMPORT_ORIGINAL_RULES: the format's own core rules instead of Cubism's (for
 * hosts of the original runtime; the report lists what they approximate). P2L_IMPORT_P2LRT_PLAYBACK:
 * motions, expressions and the pose play by p2lrt's rules instead of as Cubism's Framework plays
 * them. P2L_IMPORT_EXTERNAL_TEXTURES: texture pages name their PNG files (p2l_texture_info's uri,
 * the path the model3.json gives) instead of holding their pixels: the host hands them to the
 * renderer (p2l_render_texture). Other bits: the import fails. */
#define P2L_IMPORT_ORIGINAL_RULES 1u
#define P2L_IMPORT_P2LRT_PLAYBACK 2u
#define P2L_IMPORT_EXTERNAL_TEXTURES 4u

/* The host's reader: sets *data and *size to the bytes of the file [name] and returns true, or
 * returns false when there is no such file (the import then fails, naming it). Names are
 * '/'-separated: the model's own (as given to the import), then each file its model3.json names,
 * joined to the model's folder ("." and ".." resolved by name). The bytes are copied at once:
 * they need to stay valid only until the reader is called again or the import returns. */
typedef bool (*P2lReadFile)(const char *name, const uint8_t **data, size_t *size, void *user);

/* A model from [path] (a .model3.json or a .moc3 on disk), or from [name] read through [read]
 * (with [user] passed back). NULL on failure, with a message naming the file and the JSON path at
 * fault written into [error] (when not NULL and [error_capacity] is not 0), cut to fit. */
P2L_API P2lModel *p2l_model_import_cubism(const char *path, uint32_t flags, char *error, size_t error_capacity);
P2L_API P2lModel *p2l_model_import_cubism_with(const char *name, P2lReadFile read, void *user, uint32_t flags,
                                               char *error, size_t error_capacity);
/* The same, and a rig on it at once, as p2l_rig_load gives (its model goes with the rig). */
P2L_API P2lRig *p2l_rig_import_cubism(const char *path, uint32_t flags, char *error, size_t error_capacity);
P2L_API P2lRig *p2l_rig_import_cubism_with(const char *name, P2lReadFile read, void *user, uint32_t flags, char *error,
                                           size_t error_capacity);

/* The import report: one line for everything the import did not carry over exactly, in the
 * words of `p2lrt import` ("haru.physics3.json: ..."). 0 lines for a model or rig that was not
 * imported by these calls (or a NULL handle); NULL past the end. The lines live as long as the
 * model (for a rig: the rig). */
P2L_API uint32_t p2l_model_import_report_count(const P2lModel *model);
P2L_API const char *p2l_model_import_report_line(const P2lModel *model, uint32_t index);
P2L_API uint32_t p2l_import_report_count(const P2lRig *rig);
P2L_API const char *p2l_import_report_line(const P2lRig *rig, uint32_t index);

#ifdef __cplusplus
}
#endif

#endif /* P2L_P2L_CUBISM_H */
