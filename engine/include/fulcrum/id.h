// SPDX-License-Identifier: MIT
// Handles: small structs passed by value; zero is null; a stale handle is detected by its generation.
#ifndef FULCRUM_ID_H
#define FULCRUM_ID_H

#include <stdint.h>

typedef struct fcWorldId { uint16_t index1; uint16_t generation; } fcWorldId;
typedef struct fcBodyId { int32_t index1; uint16_t world0; uint16_t generation; } fcBodyId;
typedef struct fcShapeId { int32_t index1; uint16_t world0; uint16_t generation; } fcShapeId;
typedef struct fcJointId { int32_t index1; uint16_t world0; uint16_t generation; } fcJointId;

static const fcWorldId fc_nullWorldId = {0, 0};
static const fcBodyId fc_nullBodyId = {0, 0, 0};
static const fcShapeId fc_nullShapeId = {0, 0, 0};
static const fcJointId fc_nullJointId = {0, 0, 0};

#define FC_IS_NULL(id) ((id).index1 == 0)
#define FC_IS_NON_NULL(id) ((id).index1 != 0)
#define FC_ID_EQUALS(a, b) ((a).index1 == (b).index1 && (a).world0 == (b).world0 && (a).generation == (b).generation)

static inline uint64_t fcStoreBodyId(fcBodyId id)
{
    return ((uint64_t)(uint32_t)id.index1 << 32) | ((uint64_t)id.world0 << 16) | (uint64_t)id.generation;
}
static inline fcBodyId fcLoadBodyId(uint64_t x)
{
    fcBodyId id = {(int32_t)(x >> 32), (uint16_t)(x >> 16), (uint16_t)x};
    return id;
}
static inline uint64_t fcStoreJointId(fcJointId id)
{
    return ((uint64_t)(uint32_t)id.index1 << 32) | ((uint64_t)id.world0 << 16) | (uint64_t)id.generation;
}
static inline fcJointId fcLoadJointId(uint64_t x)
{
    fcJointId id = {(int32_t)(x >> 32), (uint16_t)(x >> 16), (uint16_t)x};
    return id;
}

#endif
