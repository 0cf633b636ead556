/*
 * csm_release.h: what p2lrt's Cubism Core (Live2DCubismCore.h) adds to the official interface.
 *
 * The official Core keeps a moc and a model entirely inside the buffers the caller gives it, so
 * freeing a buffer ends them. p2lrt keeps its evaluated model on its own heap, registered with
 * the buffer it was made in, and releases it when that buffer (or memory overlapping it) is
 * handed to csmReviveMocInPlace or csmInitializeModelInPlace again - which is how hosts that free
 * and create models reuse memory. A host that knows it runs on p2lrt can release at once, before
 * freeing the buffer:
 */
#ifndef P2L_CSM_RELEASE_H
#define P2L_CSM_RELEASE_H

#include "Live2DCubismCore.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ends the model made in this buffer; 1 if there was one. Its arrays are invalid afterwards. */
csmApi int csmCallingConvention p2lcsm_release_model(csmModel* model);
/* Ends the moc revived in this buffer (models made from it live on); 1 if there was one. */
csmApi int csmCallingConvention p2lcsm_release_moc(csmMoc* moc);

#ifdef __cplusplus
}
#endif

#endif /* P2L_CSM_RELEASE_H */
