/*
 * Live2DCubismCore.h: p2lrt's Cubism Core C API, a drop-in for the official Cubism Core's
 * (Core 5 and Core 6 ABI, moc3 versions 1-6). Written for p2lrt from the documented interface:
 * the same names, types, constants and calling rules, so a host's `#include "Live2DCubismCore.h"`
 * compiles unchanged and links against libLive2DCubismCore (static or shared) built by p2lrt.
 * docs/CUBISM_CORE.md describes the behaviour and how it differs from the official Core.
 *
 * Usage (as with the official Core):
 *   moc   = csmReviveMocInPlace(buffer, size);            buffer aligned to csmAlignofMoc
 *   bytes = csmGetSizeofModel(moc);
 *   model = csmInitializeModelInPlace(moc, memory, bytes); memory aligned to csmAlignofModel
 *   each frame: write csmGetParameterValues(model) and csmGetPartOpacities(model),
 *               csmUpdateModel(model), read the drawables, csmResetDrawableDynamicFlags(model)
 *
 * A Core 5 host reads csmGetDrawableRenderOrders; a Core 6 host reads csmGetRenderOrders (the
 * drawables, then the offscreens) and the csmGetOffscreen* family. Both are exported, so either
 * kind of host links against the same library.
 *
 * The header includes nothing: the official Frameworks include it inside a C++ namespace.
 */
#ifndef LIVE2D_CUBISM_CORE_H
#define LIVE2D_CUBISM_CORE_H

#if defined(csmApi)
/* the host chose */
#elif defined(_WIN32) && defined(CSM_CORE_EXPORT)
#define csmApi __declspec(dllexport)
#elif defined(__GNUC__)
#define csmApi __attribute__((visibility("default")))
#else
#define csmApi
#endif
#ifndef csmCallingConvention
#define csmCallingConvention
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque handles: a revived moc (the model's shared, read-only data) and a model instance. */
typedef struct csmMoc csmMoc;
typedef struct csmModel csmModel;

/* Core version: major << 24 | minor << 16 | patch. */
typedef unsigned int csmVersion;

/* Alignment the caller's buffers must have. */
enum {
  csmAlignofMoc = 64,
  csmAlignofModel = 16
};

/* Constant drawable (and offscreen) flags. The blend bits describe moc3 files before version 6;
 * Core 6 hosts read the blend modes instead. */
enum {
  csmBlendAdditive = 1 << 0,
  csmBlendMultiplicative = 1 << 1,
  csmIsDoubleSided = 1 << 2,
  csmIsInvertedMask = 1 << 3
};

/* Dynamic drawable flags, written by csmUpdateModel. */
enum {
  csmIsVisible = 1 << 0,
  csmVisibilityDidChange = 1 << 1,
  csmOpacityDidChange = 1 << 2,
  csmDrawOrderDidChange = 1 << 3,
  csmRenderOrderDidChange = 1 << 4,
  csmVertexPositionsDidChange = 1 << 5,
  csmBlendColorDidChange = 1 << 6
};

typedef unsigned char csmFlags;

/* moc3 file versions (the header's version byte). */
enum {
  csmMocVersion_Unknown = 0,
  csmMocVersion_30 = 1,
  csmMocVersion_33 = 2,
  csmMocVersion_40 = 3,
  csmMocVersion_42 = 4,
  csmMocVersion_50 = 5,
  csmMocVersion_53 = 6
};

typedef unsigned int csmMocVersion;

/* Parameter kinds. */
enum {
  csmParameterType_Normal = 0,
  csmParameterType_BlendShape = 1
};

typedef int csmParameterType;

/* Blend modes (Cubism 5.3): a drawable's or offscreen's mode is the colour blend type in the low
 * byte and the alpha blend type in the next byte. */
enum {
  csmColorBlendType_Normal = 0,
  csmColorBlendType_AddCompatible = 1,
  csmColorBlendType_MultiplyCompatible = 2,
  csmColorBlendType_Add = 3,
  csmColorBlendType_AddGlow = 4,
  csmColorBlendType_Darken = 5,
  csmColorBlendType_Multiply = 6,
  csmColorBlendType_ColorBurn = 7,
  csmColorBlendType_LinearBurn = 8,
  csmColorBlendType_Lighten = 9,
  csmColorBlendType_Screen = 10,
  csmColorBlendType_ColorDodge = 11,
  csmColorBlendType_Overlay = 12,
  csmColorBlendType_SoftLight = 13,
  csmColorBlendType_HardLight = 14,
  csmColorBlendType_LinearLight = 15,
  csmColorBlendType_Hue = 16,
  csmColorBlendType_Color = 17
};

enum {
  csmAlphaBlendType_Over = 0,
  csmAlphaBlendType_Atop = 1,
  csmAlphaBlendType_Out = 2,
  csmAlphaBlendType_ConjointOver = 3,
  csmAlphaBlendType_DisjointOver = 4
};

typedef struct csmVector2 {
  float X;
  float Y;
} csmVector2;

typedef struct csmVector4 {
  float X;
  float Y;
  float Z;
  float W;
} csmVector4;

/* Receives every message the Core logs (one line, no newline). */
typedef void (*csmLogFunction)(const char* message);

/* ---- Versions ---- */

/* The Cubism Core version whose interface this library provides. */
csmApi csmVersion csmCallingConvention csmGetVersion(void);
/* The newest moc3 version this library reads (csmMocVersion_53). */
csmApi csmMocVersion csmCallingConvention csmGetLatestMocVersion(void);
/* The version byte of the moc3 at [address], csmMocVersion_Unknown when it is not a moc3; a
 * version above csmGetLatestMocVersion() is reported as it is (the file is then refused). */
csmApi csmMocVersion csmCallingConvention csmGetMocVersion(const void* address, const unsigned int size);

/* 1 when the moc3 at [address] is complete and consistent (every offset, count, index and
 * range checked; the file then revives), 0 otherwise, with the reason logged. */
csmApi int csmCallingConvention csmHasMocConsistency(void* address, const unsigned int size);

/* ---- Logging ---- */

csmApi csmLogFunction csmCallingConvention csmGetLogFunction(void);
csmApi void csmCallingConvention csmSetLogFunction(csmLogFunction handler);

/* ---- Moc ---- */

/* Checks the moc3 at [address] (aligned to csmAlignofMoc, [size] bytes) completely and makes a
 * moc of it; NULL, with the reason logged, for a file it refuses. The buffer must stay alive and
 * unchanged while the moc or a model made from it is used. */
csmApi csmMoc* csmCallingConvention csmReviveMocInPlace(void* address, const unsigned int size);

/* ---- Model ---- */

/* The bytes csmInitializeModelInPlace needs for a model of [moc]; 0 for an invalid moc. */
csmApi unsigned int csmCallingConvention csmGetSizeofModel(const csmMoc* moc);
/* A model of [moc] in [address] (aligned to csmAlignofModel, at least csmGetSizeofModel bytes),
 * at its default parameters; NULL, with the reason logged, when it cannot be made. */
csmApi csmModel* csmCallingConvention csmInitializeModelInPlace(const csmMoc* moc, void* address, const unsigned int size);
/* Evaluates the model at its current parameter values and part opacities. */
csmApi void csmCallingConvention csmUpdateModel(csmModel* model);

/* ---- Canvas ---- */

csmApi void csmCallingConvention csmReadCanvasInfo(const csmModel* model, csmVector2* outSizeInPixels,
                                                   csmVector2* outOriginInPixels, float* outPixelsPerUnit);

/* ---- Parameters ---- */

csmApi int csmCallingConvention csmGetParameterCount(const csmModel* model);
csmApi const char** csmCallingConvention csmGetParameterIds(const csmModel* model);
csmApi const csmParameterType* csmCallingConvention csmGetParameterTypes(const csmModel* model);
csmApi const float* csmCallingConvention csmGetParameterMinimumValues(const csmModel* model);
csmApi const float* csmCallingConvention csmGetParameterMaximumValues(const csmModel* model);
csmApi const float* csmCallingConvention csmGetParameterDefaultValues(const csmModel* model);
/* Writable: the values the next csmUpdateModel evaluates. */
csmApi float* csmCallingConvention csmGetParameterValues(csmModel* model);
csmApi const int* csmCallingConvention csmGetParameterRepeats(const csmModel* model);
csmApi const int* csmCallingConvention csmGetParameterKeyCounts(const csmModel* model);
csmApi const float** csmCallingConvention csmGetParameterKeyValues(const csmModel* model);

/* ---- Parts ---- */

csmApi int csmCallingConvention csmGetPartCount(const csmModel* model);
csmApi const char** csmCallingConvention csmGetPartIds(const csmModel* model);
/* Writable: the opacities the next csmUpdateModel starts from. */
csmApi float* csmCallingConvention csmGetPartOpacities(csmModel* model);
csmApi const int* csmCallingConvention csmGetPartParentPartIndices(const csmModel* model);
/* The offscreen each part owns, -1 for none (Core 6). */
csmApi const int* csmCallingConvention csmGetPartOffscreenIndices(const csmModel* model);

/* ---- Drawables ---- */

csmApi int csmCallingConvention csmGetDrawableCount(const csmModel* model);
csmApi const char** csmCallingConvention csmGetDrawableIds(const csmModel* model);
csmApi const csmFlags* csmCallingConvention csmGetDrawableConstantFlags(const csmModel* model);
csmApi const csmFlags* csmCallingConvention csmGetDrawableDynamicFlags(const csmModel* model);
/* Colour blend type | alpha blend type << 8 (Core 6). */
csmApi const int* csmCallingConvention csmGetDrawableBlendModes(const csmModel* model);
csmApi const int* csmCallingConvention csmGetDrawableTextureIndices(const csmModel* model);
csmApi const int* csmCallingConvention csmGetDrawableDrawOrders(const csmModel* model);
/* Each drawable's place among the drawables, back to front (Core 5 hosts). */
csmApi const int* csmCallingConvention csmGetDrawableRenderOrders(const csmModel* model);
csmApi const float* csmCallingConvention csmGetDrawableOpacities(const csmModel* model);
csmApi const int* csmCallingConvention csmGetDrawableMaskCounts(const csmModel* model);
csmApi const int** csmCallingConvention csmGetDrawableMasks(const csmModel* model);
csmApi const int* csmCallingConvention csmGetDrawableVertexCounts(const csmModel* model);
/* Model units, y up. */
csmApi const csmVector2** csmCallingConvention csmGetDrawableVertexPositions(const csmModel* model);
csmApi const csmVector2** csmCallingConvention csmGetDrawableVertexUvs(const csmModel* model);
csmApi const int* csmCallingConvention csmGetDrawableIndexCounts(const csmModel* model);
csmApi const unsigned short** csmCallingConvention csmGetDrawableIndices(const csmModel* model);
csmApi const csmVector4* csmCallingConvention csmGetDrawableMultiplyColors(const csmModel* model);
csmApi const csmVector4* csmCallingConvention csmGetDrawableScreenColors(const csmModel* model);
csmApi const int* csmCallingConvention csmGetDrawableParentPartIndices(const csmModel* model);
csmApi void csmCallingConvention csmResetDrawableDynamicFlags(csmModel* model);

/* ---- Offscreens and render orders (Core 6) ---- */

csmApi int csmCallingConvention csmGetOffscreenCount(const csmModel* model);
csmApi const int* csmCallingConvention csmGetOffscreenBlendModes(const csmModel* model);
csmApi const float* csmCallingConvention csmGetOffscreenOpacities(const csmModel* model);
csmApi const int* csmCallingConvention csmGetOffscreenOwnerIndices(const csmModel* model);
csmApi const csmVector4* csmCallingConvention csmGetOffscreenMultiplyColors(const csmModel* model);
csmApi const csmVector4* csmCallingConvention csmGetOffscreenScreenColors(const csmModel* model);
csmApi const int* csmCallingConvention csmGetOffscreenMaskCounts(const csmModel* model);
csmApi const int** csmCallingConvention csmGetOffscreenMasks(const csmModel* model);
csmApi const csmFlags* csmCallingConvention csmGetOffscreenConstantFlags(const csmModel* model);
/* The drawables' places, then the offscreens', in one back-to-front sequence. */
csmApi const int* csmCallingConvention csmGetRenderOrders(const csmModel* model);

#ifdef __cplusplus
}
#endif

#endif /* LIVE2D_CUBISM_CORE_H */
