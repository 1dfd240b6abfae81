// SPDX-License-Identifier: MIT
// Scene loader: JSON (cJSON) -> an fcWorld, through the public API only.
//
// Every value is checked before it reaches the engine, so that a bad file is refused with one message that
// names the file, the place (a JSON path such as `bodies[2] ("bob").mass`) and the fault. When the engine
// itself refuses a create call, its fcGetLastError() is appended. On any failure the world built so far is
// destroyed and the output scene is left empty.
//
// Loading is linear in the size of the file: arrays are walked through their `next` links (cJSON's
// GetArrayItem is linear per call), names are resolved with a hash map, and each object's keys are sorted
// into slots in one pass (an object with an unknown or repeated key is refused at that key, so every
// object that survives has a bounded number of members).
#include "scene.h"

#include <cjson/cJSON.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FC_SCENE_PATH_CAPACITY 256
#define FC_SCENE_MAX_KEYS 24

// ---------------------------------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------------------------------

static char* fcStrDup(const char* s)
{
    size_t n = strlen(s) + 1;
    char* d = malloc(n);
    if (d == NULL) {
        fprintf(stderr, "fulcrum: out of memory\n");
        abort();
    }
    memcpy(d, s, n);
    return d;
}

static void* fcSceneCalloc(size_t count, size_t size)
{
    void* p = calloc(count ? count : 1, size);
    if (p == NULL) {
        fprintf(stderr, "fulcrum: out of memory\n");
        abort();
    }
    return p;
}

// "a number", "a string", ... for messages.
static const char* fcJsonTypeName(const cJSON* item)
{
    if (item == NULL) return "nothing";
    if (cJSON_IsNumber(item)) return "a number";
    if (cJSON_IsString(item)) return "a string";
    if (cJSON_IsArray(item)) return "an array";
    if (cJSON_IsObject(item)) return "an object";
    if (cJSON_IsBool(item)) return "a boolean";
    if (cJSON_IsNull(item)) return "null";
    return "an invalid value";
}

// Copy at most 40 printable characters of s (a key or name from the file) for a message.
static void fcPrintable(char* dst, size_t size, const char* s)
{
    size_t n = 0;
    for (; *s != '\0' && n + 4 < size && n < 40; ++s) dst[n++] = isprint((unsigned char)*s) ? *s : '?';
    if (*s != '\0' && n + 4 < size) dst[n++] = '.', dst[n++] = '.', dst[n++] = '.';
    dst[n] = '\0';
}

// ---------------------------------------------------------------------------------------------------------------------
// Name -> index hash map (open addressing, FNV-1a); the names live in the scene's arrays
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcNameMap {
    int* slots;      // index into names, or -1
    uint32_t mask;   // capacity - 1 (capacity a power of two, at least twice the entries)
} fcNameMap;

static void fcNameMap_Init(fcNameMap* map, int entries)
{
    uint32_t capacity = 16;
    while (capacity < 2u * (uint32_t)entries) capacity *= 2;
    map->slots = fcSceneCalloc(capacity, sizeof(int));
    for (uint32_t i = 0; i < capacity; ++i) map->slots[i] = -1;
    map->mask = capacity - 1;
}

static void fcNameMap_Free(fcNameMap* map)
{
    free(map->slots);
    map->slots = NULL;
}

static uint32_t fcHashName(const char* s)
{
    uint32_t h = 2166136261u;
    for (; *s != '\0'; ++s) h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

// The slot holding name, or the empty slot where it would go.
static uint32_t fcNameMap_Slot(const fcNameMap* map, char* const* names, const char* name)
{
    uint32_t i = fcHashName(name) & map->mask;
    while (map->slots[i] >= 0 && strcmp(names[map->slots[i]], name) != 0) i = (i + 1) & map->mask;
    return i;
}

static int fcNameMap_Find(const fcNameMap* map, char* const* names, const char* name)
{
    return map->slots[fcNameMap_Slot(map, names, name)];
}

// Insert names[index]; false when the name is already there.
static bool fcNameMap_Insert(fcNameMap* map, char* const* names, int index)
{
    uint32_t slot = fcNameMap_Slot(map, names, names[index]);
    if (map->slots[slot] >= 0) return false;
    map->slots[slot] = index;
    return true;
}

// ---------------------------------------------------------------------------------------------------------------------
// The loader state and its one error message
// ---------------------------------------------------------------------------------------------------------------------

// The constant rows of a "linear" joint, read by the user-constraint callback.
typedef struct fcLinearRows {
    int rowCount;
    fcUserConstraintRow rows[FC_MAX_JOINT_ROWS];
} fcLinearRows;

typedef struct fcSceneInternal {
    int linearCount;
    fcLinearRows* linear;  // one per "linear" joint (capacity: the number of joints)
} fcSceneInternal;

typedef struct fcLoader {
    const char* file;
    char* err;
    size_t errSize;
    fcScene* scene;
    fcSceneInternal* internal;
    fcNameMap bodyMap;
    fcNameMap jointMap;
} fcLoader;

// "where.key" (or just one of them) into dst.
static void fcJoinPath(char* dst, size_t size, const char* where, const char* key)
{
    if (where != NULL && where[0] != '\0' && key != NULL && key[0] != '\0') {
        // keys that are array indices ("[2]") attach without a dot; a path too long for dst is cut (messages only)
        if (snprintf(dst, size, key[0] == '[' ? "%s%s" : "%s.%s", where, key) >= (int)size) dst[size - 1] = '\0';
    } else {
        snprintf(dst, size, "%s", where != NULL && where[0] != '\0' ? where : (key != NULL ? key : ""));
    }
}

// Write "file: where.key: message" and return false.
static bool fcFail(fcLoader* L, const char* where, const char* key, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static bool fcFail(fcLoader* L, const char* where, const char* key, const char* fmt, ...)
{
    char place[FC_SCENE_PATH_CAPACITY + 64];
    char message[512];
    fcJoinPath(place, sizeof place, where, key);
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    if (place[0] != '\0')
        snprintf(L->err, L->errSize, "%s: %s: %s", L->file, place, message);
    else
        snprintf(L->err, L->errSize, "%s: %s", L->file, message);
    return false;
}

// ---------------------------------------------------------------------------------------------------------------------
// Objects: keys sorted into slots in one pass; unknown and repeated keys refused
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcObj {
    const char* const* keys;
    int keyCount;
    const cJSON* item[FC_SCENE_MAX_KEYS];
    char where[FC_SCENE_PATH_CAPACITY];
} fcObj;

static bool fcObj_Open(fcLoader* L, fcObj* o, const cJSON* json, const char* where, const char* const* keys,
                       int keyCount)
{
    // a path longer than the buffer is cut: that only shortens the message
    if (snprintf(o->where, sizeof o->where, "%s", where) >= (int)sizeof o->where) o->where[sizeof o->where - 1] = '\0';
    // an object with a "name" is called by it in every message, including those about its other keys
    const cJSON* name = cJSON_IsObject(json) ? cJSON_GetObjectItemCaseSensitive(json, "name") : NULL;
    if (cJSON_IsString(name) && name->valuestring != NULL && name->valuestring[0] != '\0') {
        char shown[64];
        fcPrintable(shown, sizeof shown, name->valuestring);
        if (snprintf(o->where, sizeof o->where, "%s (\"%s\")", where, shown) >= (int)sizeof o->where)
            o->where[sizeof o->where - 1] = '\0';
    }
    o->keys = keys;
    o->keyCount = keyCount;
    memset(o->item, 0, sizeof o->item);
    if (!cJSON_IsObject(json)) return fcFail(L, where, NULL, "expected an object, got %s", fcJsonTypeName(json));
    where = o->where;
    for (const cJSON* m = json->child; m != NULL; m = m->next) {
        int k = 0;
        while (k < keyCount && strcmp(keys[k], m->string) != 0) ++k;
        char shown[64];
        fcPrintable(shown, sizeof shown, m->string);
        if (k == keyCount) {
            char allowed[512];
            size_t n = 0;
            allowed[0] = '\0';
            for (int j = 0; j < keyCount && n + 2 < sizeof allowed; ++j)
                n += (size_t)snprintf(allowed + n, sizeof allowed - n, "%s%s", j ? ", " : "", keys[j]);
            return fcFail(L, where, shown, "unknown key (known keys here: %s)", allowed);
        }
        if (o->item[k] != NULL) return fcFail(L, where, shown, "key appears twice");
        o->item[k] = m;
    }
    return true;
}

static const cJSON* fcObj_Get(const fcObj* o, const char* key)
{
    for (int k = 0; k < o->keyCount; ++k)
        if (strcmp(o->keys[k], key) == 0) return o->item[k];
    return NULL;
}

static bool fcObj_Has(const fcObj* o, const char* key) { return fcObj_Get(o, key) != NULL; }

// true or false. Absent: true with *out unchanged.
static bool fcGetBool(fcLoader* L, const fcObj* o, const char* key, bool* out)
{
    const cJSON* item = fcObj_Get(o, key);
    if (item == NULL) return true;
    if (!cJSON_IsBool(item)) return fcFail(L, o->where, key, "expected true or false, got %s", fcJsonTypeName(item));
    *out = cJSON_IsTrue(item);
    return true;
}

// A finite number. Absent: true with *present false and *out unchanged.
static bool fcGetNumber(fcLoader* L, const fcObj* o, const char* key, double* out, bool* present)
{
    const cJSON* item = fcObj_Get(o, key);
    if (present != NULL) *present = item != NULL;
    if (item == NULL) return true;
    if (!cJSON_IsNumber(item)) return fcFail(L, o->where, key, "expected a number, got %s", fcJsonTypeName(item));
    if (!isfinite(item->valuedouble))
        return fcFail(L, o->where, key, "must be a finite number, got %g", item->valuedouble);
    *out = item->valuedouble;
    return true;
}

// item as an array of exactly n finite numbers; label names it in messages (a key, or "points[2]").
static bool fcReadNumbers(fcLoader* L, const char* where, const char* label, const cJSON* item, double* out, int n)
{
    if (!cJSON_IsArray(item))
        return fcFail(L, where, label, "expected an array of %d numbers, got %s", n, fcJsonTypeName(item));
    int count = 0;
    for (const cJSON* e = item->child; e != NULL; e = e->next) {
        if (count < n) {
            char sub[96];
            snprintf(sub, sizeof sub, "%s[%d]", label, count);
            if (!cJSON_IsNumber(e)) return fcFail(L, where, sub, "expected a number, got %s", fcJsonTypeName(e));
            if (!isfinite(e->valuedouble))
                return fcFail(L, where, sub, "must be a finite number, got %g", e->valuedouble);
            out[count] = e->valuedouble;
        }
        ++count;
        if (count > n) break;
    }
    if (count != n) {
        if (count > n)
            return fcFail(L, where, label, "expected an array of %d numbers, got more than %d", n, n);
        return fcFail(L, where, label, "expected an array of %d numbers, got %d", n, count);
    }
    return true;
}

// An array of exactly n finite numbers.
static bool fcGetNumbers(fcLoader* L, const fcObj* o, const char* key, double* out, int n, bool* present)
{
    const cJSON* item = fcObj_Get(o, key);
    if (present != NULL) *present = item != NULL;
    if (item == NULL) return true;
    return fcReadNumbers(L, o->where, key, item, out, n);
}

static bool fcGetVec3(fcLoader* L, const fcObj* o, const char* key, fcVec3* out, bool* present)
{
    double v[3];
    bool has = false;
    if (!fcGetNumbers(L, o, key, v, 3, &has)) return false;
    if (has) *out = fcV3((fcReal)v[0], (fcReal)v[1], (fcReal)v[2]);
    if (present != NULL) *present = has;
    return true;
}

// A unit quaternion [w, x, y, z] (length within 1e-3 of 1), normalized.
static bool fcGetQuat(fcLoader* L, const fcObj* o, const char* key, fcQuat* out)
{
    double v[4];
    bool has = false;
    if (!fcGetNumbers(L, o, key, v, 4, &has)) return false;
    if (!has) return true;
    double length = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    if (!(fabs(length - 1) <= 1e-3))
        return fcFail(L, o->where, key, "must be a unit quaternion [w, x, y, z], got one of length %g", length);
    fcQuat q = {(fcReal)(v[0] / length), (fcReal)(v[1] / length), (fcReal)(v[2] / length), (fcReal)(v[3] / length)};
    *out = q;
    return true;
}

// A direction: nonzero, returned normalized.
static bool fcGetDirection(fcLoader* L, const fcObj* o, const char* key, fcVec3* out, bool required,
                           const char* whatNeedsIt)
{
    bool has = false;
    fcVec3 v = fcV3(0, 0, 0);
    if (!fcGetVec3(L, o, key, &v, &has)) return false;
    if (!has) {
        if (required) return fcFail(L, o->where, key, "missing: %s needs it", whatNeedsIt);
        return true;
    }
    // scaled by its largest component first: the squares of [1e300, 0, 0] overflowed, and it came out as zero
    fcReal largest = fmax(FC_FABS(v.x), fmax(FC_FABS(v.y), FC_FABS(v.z)));
    fcVec3 u = largest > 0 ? fcVec3_Scale(1 / largest, v) : v;
    fcReal length = fcVec3_Length(u) * largest;
    if (!(length > 1e-12)) return fcFail(L, o->where, key, "must not be the zero vector");
    *out = fcVec3_Normalize(u);
    return true;
}

static bool fcGetString(fcLoader* L, const fcObj* o, const char* key, const char** out, bool* present)
{
    const cJSON* item = fcObj_Get(o, key);
    if (present != NULL) *present = item != NULL;
    if (item == NULL) return true;
    if (!cJSON_IsString(item) || item->valuestring == NULL)
        return fcFail(L, o->where, key, "expected a string, got %s", fcJsonTypeName(item));
    *out = item->valuestring;
    return true;
}

// > 0 (or >= 0 when zeroAllowed).
static bool fcCheckPositive(fcLoader* L, const fcObj* o, const char* key, double v, bool zeroAllowed)
{
    if (zeroAllowed ? v >= 0 : v > 0) return true;
    return fcFail(L, o->where, key, "must be %s 0, got %g", zeroAllowed ? ">=" : ">", v);
}

// Get an optional number that must be > 0 (or >= 0).
static bool fcGetPositive(fcLoader* L, const fcObj* o, const char* key, double* out, bool zeroAllowed,
                          bool* present)
{
    bool has = false;
    if (!fcGetNumber(L, o, key, out, &has)) return false;
    if (present != NULL) *present = has;
    return !has || fcCheckPositive(L, o, key, *out, zeroAllowed);
}

// Names: 1..FC_NAME_CAPACITY-1 characters of letters, digits, '_' and '-' (they become CSV column prefixes).
static bool fcCheckName(fcLoader* L, const fcObj* o, const char* key, const char* name)
{
    size_t n = strlen(name);
    bool ok = n > 0 && n < FC_NAME_CAPACITY;
    for (size_t i = 0; ok && i < n; ++i) ok = isalnum((unsigned char)name[i]) || name[i] == '_' || name[i] == '-';
    if (ok) return true;
    char shown[64];
    fcPrintable(shown, sizeof shown, name);
    return fcFail(L, o->where, key, "must be 1 to %d letters, digits, '_' or '-', got \"%s\"", FC_NAME_CAPACITY - 1,
                  shown);
}

// A body reference: "world" (null id, *index -1) or the name of a body.
static bool fcGetBodyRef(fcLoader* L, const fcObj* o, const char* key, bool required, fcBodyId* id, int* index)
{
    const char* name = "world";
    bool has = false;
    if (!fcGetString(L, o, key, &name, &has)) return false;
    if (!has && required) return fcFail(L, o->where, key, "missing (the name of a body)");
    *id = fc_nullBodyId;
    *index = -1;
    if (strcmp(name, "world") == 0) return true;
    int i = fcNameMap_Find(&L->bodyMap, L->scene->bodyNames, name);
    if (i < 0) {
        char shown[64];
        fcPrintable(shown, sizeof shown, name);
        return fcFail(L, o->where, key, "no body named \"%s\"", shown);
    }
    *id = L->scene->bodies[i];
    *index = i;
    return true;
}

// Count the elements of an optional array member; -1 on error.
static int fcArrayCount(fcLoader* L, const fcObj* o, const char* key, const cJSON** array)
{
    const cJSON* item = fcObj_Get(o, key);
    *array = item;
    if (item == NULL) return 0;
    if (!cJSON_IsArray(item)) {
        fcFail(L, o->where, key, "expected an array, got %s", fcJsonTypeName(item));
        return -1;
    }
    int n = 0;
    for (const cJSON* e = item->child; e != NULL; e = e->next) ++n;
    return n;
}

// ---------------------------------------------------------------------------------------------------------------------
// Shapes and bodies
// ---------------------------------------------------------------------------------------------------------------------

static const char* const fc_shapeKeys[] = {"type",        "radius",      "half_extents",     "half_height",
                                           "points",      "vertices",    "triangles",        "density",
                                           "position",    "orientation", "friction",         "restitution",
                                           "rolling_friction", "torsional_friction", "sensor", "filter"};
static const char* const fc_filterKeys[] = {"category", "mask"};

// The arrays a hull or mesh def points to, owned by the loader until the shape is made (the engine copies them).
typedef struct fcShapeArrays {
    fcVec3* points;  // hull points or mesh vertices
    int* indices;    // mesh: 3 per triangle
} fcShapeArrays;

// An array of at least minCount [x, y, z] points (shape frame); *out is allocated (the caller frees it).
static bool fcGetPointList(fcLoader* L, const fcObj* o, const char* key, int minCount, const char* what, fcVec3** out,
                           int* count)
{
    *out = NULL;
    *count = 0;
    const cJSON* item = fcObj_Get(o, key);
    if (!cJSON_IsArray(item))
        return fcFail(L, o->where, key, "expected an array of [x, y, z] points, got %s", fcJsonTypeName(item));
    int n = 0;
    for (const cJSON* e = item->child; e != NULL; e = e->next) ++n;
    if (n < minCount) return fcFail(L, o->where, key, "%s needs at least %d, got %d", what, minCount, n);
    fcVec3* p = fcSceneCalloc((size_t)n, sizeof(fcVec3));
    int i = 0;
    for (const cJSON* e = item->child; e != NULL; e = e->next, ++i) {
        char label[64];
        snprintf(label, sizeof label, "%s[%d]", key, i);
        double v[3];
        if (!fcReadNumbers(L, o->where, label, e, v, 3)) {
            free(p);
            return false;
        }
        p[i] = fcV3((fcReal)v[0], (fcReal)v[1], (fcReal)v[2]);
    }
    *out = p;
    *count = n;
    return true;
}

// Mesh triangles: an array of at least one [i, j, k] of vertex indices, each a whole number in [0, vertexCount).
static bool fcGetTriangles(fcLoader* L, const fcObj* o, int vertexCount, int** out, int* count)
{
    *out = NULL;
    *count = 0;
    const cJSON* item = fcObj_Get(o, "triangles");
    if (!cJSON_IsArray(item))
        return fcFail(L, o->where, "triangles", "expected an array of [i, j, k] vertex indices, got %s",
                      fcJsonTypeName(item));
    int n = 0;
    for (const cJSON* e = item->child; e != NULL; e = e->next) ++n;
    if (n < 1) return fcFail(L, o->where, "triangles", "a mesh needs at least 1 triangle, got 0");
    int* idx = fcSceneCalloc((size_t)n * 3, sizeof(int));
    int t = 0;
    for (const cJSON* e = item->child; e != NULL; e = e->next, ++t) {
        char label[64];
        snprintf(label, sizeof label, "triangles[%d]", t);
        double v[3];
        if (!fcReadNumbers(L, o->where, label, e, v, 3)) {
            free(idx);
            return false;
        }
        for (int k = 0; k < 3; ++k) {
            char sub[80];
            snprintf(sub, sizeof sub, "%s[%d]", label, k);
            if (v[k] != floor(v[k])) {
                free(idx);
                return fcFail(L, o->where, sub, "must be a whole number (a vertex index), got %g", v[k]);
            }
            if (!(v[k] >= 0 && v[k] < vertexCount)) {
                free(idx);
                return fcFail(L, o->where, sub, "index %g is out of range: the mesh has %d vertices (0 to %d)", v[k],
                              vertexCount, vertexCount - 1);
            }
            idx[3 * t + k] = (int)v[k];
        }
    }
    *out = idx;
    *count = n;
    return true;
}

// Why the engine refuses a shape def, asked of a scratch world with one static body ("" when it takes it).
static void fcEngineShapeVerdict(const fcShapeDef* def, char* why, size_t size)
{
    why[0] = '\0';
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    if (FC_IS_NULL(w)) return;
    fcBodyDef bd = fcDefaultBodyDef();
    bd.type = fc_staticBody;
    fcBodyId b = fcCreateBody(w, &bd);
    fcClearError();
    if (FC_IS_NON_NULL(b) && FC_IS_NULL(fcCreateShape(b, def))) snprintf(why, size, "%s", fcGetLastError());
    fcDestroyWorld(w);
}

static void fcFreeShapeArrays(fcShapeArrays* arrays, int count)
{
    for (int i = 0; i < count; ++i) {
        free(arrays[i].points);
        free(arrays[i].indices);
    }
    free(arrays);
}

static const char* fcBodyTypeName(fcBodyType type)
{
    return type == fc_staticBody ? "static" : type == fc_kinematicBody ? "kinematic" : "dynamic";
}

// One shape of a body of type bodyType; hull points and mesh arrays go into arrays (freed by the caller, also on
// failure).
static bool fcParseShape(fcLoader* L, const cJSON* json, const char* where, fcBodyType bodyType, fcShapeDef* def,
                         fcShapeArrays* arrays)
{
    fcObj o;
    if (!fcObj_Open(L, &o, json, where, fc_shapeKeys, (int)(sizeof fc_shapeKeys / sizeof fc_shapeKeys[0])))
        return false;
    const char* type = NULL;
    bool has = false;
    if (!fcGetString(L, &o, "type", &type, &has)) return false;
    if (!has) return fcFail(L, where, "type", "missing (sphere, box, capsule, cylinder, hull, plane or mesh)");
    *def = fcDefaultShapeDef();
    // the geometry keys each type uses: radius, half_height, half_extents, points, vertices, triangles
    enum { geometryKeys = 6 };
    static const char* const geometry[geometryKeys] = {"radius", "half_height", "half_extents",
                                                       "points", "vertices",    "triangles"};
    bool used[geometryKeys] = {false, false, false, false, false, false};
    if (strcmp(type, "sphere") == 0) {
        def->type = fc_sphereShape, used[0] = true;
    } else if (strcmp(type, "box") == 0) {
        def->type = fc_boxShape, used[2] = true;
    } else if (strcmp(type, "capsule") == 0) {
        def->type = fc_capsuleShape, used[0] = used[1] = true;
    } else if (strcmp(type, "cylinder") == 0) {
        def->type = fc_cylinderShape, used[0] = used[1] = true;
    } else if (strcmp(type, "hull") == 0) {
        def->type = fc_hullShape, used[3] = true;
    } else if (strcmp(type, "plane") == 0) {
        def->type = fc_planeShape;  // z <= 0 in the shape frame; static bodies only
    } else if (strcmp(type, "mesh") == 0) {
        def->type = fc_meshShape, used[4] = used[5] = true;
    } else {
        char shown[64];
        fcPrintable(shown, sizeof shown, type);
        return fcFail(L, where, "type", "must be sphere, box, capsule, cylinder, hull, plane or mesh, got \"%s\"", shown);
    }
    if ((def->type == fc_planeShape || def->type == fc_meshShape) && bodyType != fc_staticBody)
        return fcFail(L, where, "type", "a %s shape can only be on a static body, and this body is %s (give the body "
                                        "\"type\": \"static\")",
                      type, fcBodyTypeName(bodyType));
    for (int k = 0; k < geometryKeys; ++k) {
        if (used[k] && !fcObj_Has(&o, geometry[k]))
            return fcFail(L, where, geometry[k], "missing: a %s shape needs it", type);
        if (!used[k] && fcObj_Has(&o, geometry[k])) return fcFail(L, where, geometry[k], "not used by a %s shape", type);
    }
    double v = 0;
    if (used[0]) {
        if (!fcGetPositive(L, &o, "radius", &v, false, NULL)) return false;
        def->radius = (fcReal)v;
    }
    if (used[1]) {
        // a capsule of half height 0 is a sphere; a cylinder needs a height
        if (!fcGetPositive(L, &o, "half_height", &v, def->type == fc_capsuleShape, NULL)) return false;
        def->halfHeight = (fcReal)v;
    }
    if (used[2]) {
        double e[3];
        if (!fcGetNumbers(L, &o, "half_extents", e, 3, NULL)) return false;
        for (int k = 0; k < 3; ++k) {
            char sub[32];
            snprintf(sub, sizeof sub, "half_extents[%d]", k);
            if (!fcCheckPositive(L, &o, sub, e[k], false)) return false;
        }
        def->halfExtents = fcV3((fcReal)e[0], (fcReal)e[1], (fcReal)e[2]);
    }
    if (used[3]) {
        if (!fcGetPointList(L, &o, "points", 4, "a hull (points spanning a volume)", &arrays->points, &def->pointCount))
            return false;
        def->points = arrays->points;
    }
    if (used[4]) {
        if (!fcGetPointList(L, &o, "vertices", 3, "a mesh", &arrays->points, &def->vertexCount)) return false;
        def->vertices = arrays->points;
        if (!fcGetTriangles(L, &o, def->vertexCount, &arrays->indices, &def->triangleCount)) return false;
        def->indices = arrays->indices;
    }
    bool hasDensity = false;
    if (!fcGetPositive(L, &o, "density", &v, false, &hasDensity)) return false;
    if (hasDensity) def->density = (fcReal)v;
    if (def->type == fc_hullShape) {
        // a hull the engine cannot build (coplanar points, too many vertices) has no volume: refused here with
        // the engine's reason, so that a body taking its mass from it is not blamed instead
        fcMassData md = fcComputeShapeMass(def);
        if (!(md.mass > 0)) {
            char why[512];
            fcEngineShapeVerdict(def, why, sizeof why);
            return fcFail(L, where, "points", "the engine refused the hull: %s",
                          why[0] != '\0' ? why : "the points span no volume");
        }
    }
    if (!fcGetVec3(L, &o, "position", &def->localPosition, NULL)) return false;
    if (!fcGetQuat(L, &o, "orientation", &def->localOrientation)) return false;
    // the surface: Coulomb friction, restitution (in [0, 1]), rolling and spinning resistance arms
    bool present = false;
    if (!fcGetPositive(L, &o, "friction", &v, true, &present)) return false;
    if (present) def->friction = (fcReal)v;
    if (!fcGetPositive(L, &o, "restitution", &v, true, &present)) return false;
    if (present && v > 1) return fcFail(L, where, "restitution", "must be in [0, 1], got %g", v);
    if (present) def->restitution = (fcReal)v;
    if (!fcGetPositive(L, &o, "rolling_friction", &v, true, &present)) return false;
    if (present) def->rollingFriction = (fcReal)v;
    if (!fcGetPositive(L, &o, "torsional_friction", &v, true, &present)) return false;
    if (present) def->torsionalFriction = (fcReal)v;
    if (!fcGetBool(L, &o, "sensor", &def->isSensor)) return false;
    // collision filter: {"category": N, "mask": N}, whole numbers (bit sets)
    const cJSON* filterJson = fcObj_Get(&o, "filter");
    if (filterJson != NULL) {
        char sub[FC_SCENE_PATH_CAPACITY + 16];
        fcJoinPath(sub, sizeof sub, where, "filter");
        fcObj fo;
        if (!fcObj_Open(L, &fo, filterJson, sub, fc_filterKeys, 2)) return false;
        uint64_t* targets[2] = {&def->categoryBits, &def->maskBits};
        for (int k = 0; k < 2; ++k) {
            if (!fcGetNumber(L, &fo, fc_filterKeys[k], &v, &present)) return false;
            if (!present) continue;
            if (!(v >= 0 && v <= 9007199254740991.0 && v == floor(v)))
                return fcFail(L, fo.where, fc_filterKeys[k],
                              "must be a whole number from 0 to 2^53 - 1 (a bit set), got %.15g", v);
            *targets[k] = (uint64_t)v;
        }
    }
    return true;
}

// Total mass of the shapes, and their inertia tensor about their common centre, in the body frame.
static fcReal fcShapesMassProperties(const fcShapeDef* shapes, int count, fcMat33* inertia)
{
    *inertia = fcMat33_Zero();
    fcReal total = 0;
    fcVec3 moment = fcV3(0, 0, 0);
    // first pass: the mass and its first moment (shape centres in the body frame)
    for (int i = 0; i < count; ++i) {
        fcMassData d = fcComputeShapeMass(shapes + i);
        fcVec3 c = fcVec3_Add(shapes[i].localPosition, fcQuat_Rotate(shapes[i].localOrientation, d.center));
        total += d.mass;
        moment = fcVec3_MulAdd(moment, d.mass, c);
    }
    if (!(total > 0)) return total;
    fcVec3 com = fcVec3_Scale(1 / total, moment);
    // second pass: each tensor rotated into the body frame, moved to the common centre: I + m (r.r E - r r^T)
    for (int i = 0; i < count; ++i) {
        fcMassData d = fcComputeShapeMass(shapes + i);
        fcVec3 c = fcVec3_Add(shapes[i].localPosition, fcQuat_Rotate(shapes[i].localOrientation, d.center));
        fcVec3 r = fcVec3_Sub(c, com);
        fcReal rr = fcVec3_Dot(r, r);
        fcMat33 outer = {fcVec3_Scale(r.x, r), fcVec3_Scale(r.y, r), fcVec3_Scale(r.z, r)};
        fcMat33 shift = fcMat33_Add(fcMat33_Diagonal(fcV3(rr, rr, rr)), fcMat33_Scale(-1, outer));
        fcMat33 rotated = fcMat33_RotateTensor(shapes[i].localOrientation, d.inertia);
        *inertia = fcMat33_Add(*inertia, fcMat33_Add(rotated, fcMat33_Scale(d.mass, shift)));
    }
    return total;
}

static const char* const fc_bodyKeys[] = {"name",   "type",    "position",       "orientation",   "velocity",
                                          "angular_velocity", "mass", "inertia", "inertia_tensor", "force",
                                          "torque", "linear_damping", "angular_damping", "shapes"};

// A symmetric positive definite tensor from 9 row-major numbers.
static bool fcGetInertiaTensor(fcLoader* L, const fcObj* o, fcMat33* out)
{
    double a[9];
    if (!fcGetNumbers(L, o, "inertia_tensor", a, 9, NULL)) return false;
    double scale = 0;
    for (int k = 0; k < 9; ++k) scale = fmax(scale, fabs(a[k]));
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (fabs(a[3 * i + j] - a[3 * j + i]) > 1e-9 * scale)
                return fcFail(L, o->where, "inertia_tensor", "must be symmetric: element (%d,%d) = %g but (%d,%d) = %g",
                              i, j, a[3 * i + j], j, i, a[3 * j + i]);
    // positive definite: leading principal minors > 0
    double m1 = a[0];
    double m2 = a[0] * a[4] - a[1] * a[3];
    double m3 = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
                a[2] * (a[3] * a[7] - a[4] * a[6]);
    if (!(m1 > 0 && m2 > 0 && m3 > 0))
        return fcFail(L, o->where, "inertia_tensor", "must be positive definite (leading minors %g, %g, %g)", m1, m2, m3);
    // fcMat33 is stored by columns
    fcMat33 m = {{(fcReal)a[0], (fcReal)a[3], (fcReal)a[6]},
                 {(fcReal)a[1], (fcReal)a[4], (fcReal)a[7]},
                 {(fcReal)a[2], (fcReal)a[5], (fcReal)a[8]}};
    *out = m;
    return true;
}

static bool fcParseBody(fcLoader* L, const cJSON* json, int index)
{
    fcScene* scene = L->scene;
    char where[FC_SCENE_PATH_CAPACITY];
    snprintf(where, sizeof where, "bodies[%d]", index);
    fcObj o;
    if (!fcObj_Open(L, &o, json, where, fc_bodyKeys, (int)(sizeof fc_bodyKeys / sizeof fc_bodyKeys[0]))) return false;

    // name first: the rest of the messages carry it
    const char* name = NULL;
    bool has = false;
    if (!fcGetString(L, &o, "name", &name, &has)) return false;
    if (!has) return fcFail(L, where, "name", "missing (every body needs a unique name)");
    if (!fcCheckName(L, &o, "name", name)) return false;
    if (strcmp(name, "world") == 0) return fcFail(L, o.where, "name", "\"world\" is reserved for the fixed frame");
    scene->bodyNames[index] = fcStrDup(name);
    scene->bodyCount = index + 1;
    if (!fcNameMap_Insert(&L->bodyMap, scene->bodyNames, index))
        return fcFail(L, o.where, "name", "duplicate body name \"%s\"", name);
    snprintf(o.where, sizeof o.where, "bodies[%d] (\"%s\")", index, name);

    fcBodyDef def = fcDefaultBodyDef();
    def.name = scene->bodyNames[index];
    const char* type = "dynamic";
    if (!fcGetString(L, &o, "type", &type, NULL)) return false;
    if (strcmp(type, "dynamic") == 0) {
        def.type = fc_dynamicBody;
    } else if (strcmp(type, "static") == 0) {
        def.type = fc_staticBody;
    } else if (strcmp(type, "kinematic") == 0) {
        def.type = fc_kinematicBody;
    } else {
        char shown[64];
        fcPrintable(shown, sizeof shown, type);
        return fcFail(L, o.where, "type", "must be static, kinematic or dynamic, got \"%s\"", shown);
    }
    if (!fcGetVec3(L, &o, "position", &def.position, NULL)) return false;
    if (!fcGetQuat(L, &o, "orientation", &def.orientation)) return false;
    if (!fcGetVec3(L, &o, "velocity", &def.linearVelocity, NULL)) return false;
    if (!fcGetVec3(L, &o, "angular_velocity", &def.angularVelocity, NULL)) return false;
    if (!fcGetVec3(L, &o, "force", &def.force, NULL)) return false;
    if (!fcGetVec3(L, &o, "torque", &def.torque, NULL)) return false;
    double v = 0;
    bool hasV = false;
    if (!fcGetPositive(L, &o, "linear_damping", &v, true, &hasV)) return false;
    if (hasV) def.linearDamping = (fcReal)v;
    if (!fcGetPositive(L, &o, "angular_damping", &v, true, &hasV)) return false;
    if (hasV) def.angularDamping = (fcReal)v;

    // mass properties
    double mass = 0;
    bool hasMass = false;
    if (!fcGetNumber(L, &o, "mass", &mass, &hasMass)) return false;
    if (hasMass && !(mass >= 0)) return fcFail(L, o.where, "mass", "must be > 0 (or 0: from the shapes), got %g", mass);
    bool hasInertia = fcObj_Has(&o, "inertia"), hasTensor = fcObj_Has(&o, "inertia_tensor");
    if (hasInertia && hasTensor) return fcFail(L, o.where, "inertia_tensor", "give inertia or inertia_tensor, not both");
    if (hasInertia) {
        double d[3];
        if (!fcGetNumbers(L, &o, "inertia", d, 3, NULL)) return false;
        for (int k = 0; k < 3; ++k) {
            char sub[32];
            snprintf(sub, sizeof sub, "inertia[%d]", k);
            if (!fcCheckPositive(L, &o, sub, d[k], false)) return false;
        }
        def.inertia = fcV3((fcReal)d[0], (fcReal)d[1], (fcReal)d[2]);
    }
    if (hasTensor) {
        if (!fcGetInertiaTensor(L, &o, &def.inertiaTensor)) return false;
        def.useInertiaTensor = true;
        def.inertia = fcV3(def.inertiaTensor.cx.x, def.inertiaTensor.cy.y, def.inertiaTensor.cz.z);
    }

    // shapes (parsed before the body is made, so that their mass properties are known)
    const cJSON* shapesJson = NULL;
    int shapeCount = fcArrayCount(L, &o, "shapes", &shapesJson);
    if (shapeCount < 0) return false;
    fcShapeDef* shapes = fcSceneCalloc((size_t)shapeCount, sizeof(fcShapeDef));
    fcShapeArrays* arrays = fcSceneCalloc((size_t)shapeCount, sizeof(fcShapeArrays));
    int s = 0;
    for (const cJSON* e = shapesJson ? shapesJson->child : NULL; e != NULL; e = e->next, ++s) {
        char sub[FC_SCENE_PATH_CAPACITY + 32];
        snprintf(sub, sizeof sub, "%s.shapes[%d]", o.where, s);
        if (!fcParseShape(L, e, sub, def.type, shapes + s, arrays + s)) {
            fcFreeShapeArrays(arrays, s + 1);
            free(shapes);
            return false;
        }
    }

    bool ok = true;
    if (def.type == fc_dynamicBody) {
        bool massFromShapes = !hasMass || mass == 0;
        bool hasAnyInertia = hasInertia || hasTensor;
        if (massFromShapes && shapeCount == 0) {
            ok = fcFail(L, o.where, "mass", "missing: a dynamic body without shapes needs a mass > 0 and an inertia");
        } else if (!massFromShapes && !hasAnyInertia && shapeCount == 0) {
            ok = fcFail(L, o.where, "inertia", "missing: a dynamic body with a mass but no shapes needs inertia or "
                                               "inertia_tensor");
        } else if (massFromShapes && hasAnyInertia) {
            // the inertia is given; the mass is the shapes'
            fcMat33 unused;
            def.mass = fcShapesMassProperties(shapes, shapeCount, &unused);
        } else if (!massFromShapes && !hasAnyInertia) {
            // the shapes' inertia scaled to the given mass
            fcMat33 tensor;
            fcReal shapeMass = fcShapesMassProperties(shapes, shapeCount, &tensor);
            if (!(shapeMass > 0)) {
                ok = fcFail(L, o.where, "shapes", "have no mass to take the inertia from");
            } else {
                tensor = fcMat33_Scale((fcReal)mass / shapeMass, tensor);
                fcReal trace = tensor.cx.x + tensor.cy.y + tensor.cz.z;
                fcReal off = FC_FABS(tensor.cy.x) + FC_FABS(tensor.cz.x) + FC_FABS(tensor.cz.y);
                def.inertia = fcV3(tensor.cx.x, tensor.cy.y, tensor.cz.z);
                if (off > 1e-12 * trace) {
                    def.inertiaTensor = tensor;
                    def.useInertiaTensor = true;
                }
                def.mass = (fcReal)mass;
            }
        } else {
            def.mass = (fcReal)mass;  // mass and inertia given, or both from the shapes (mass 0)
        }
    } else if (hasMass || hasInertia || hasTensor) {
        def.mass = (fcReal)mass;  // passed on: the engine decides what a static or kinematic body does with it
    }
    if (ok) {
        fcClearError();
        scene->bodies[index] = fcCreateBody(scene->world, &def);
        if (FC_IS_NULL(scene->bodies[index]))
            ok = fcFail(L, o.where, NULL, "the engine refused the body: %s", fcGetLastError());
    }
    for (int k = 0; ok && k < shapeCount; ++k) {
        // the file places every shape relative to the body's position; the engine moves a body whose mass comes from
        // its shapes to their centre after each one and places the next relative to where it is then (the second
        // of two spheres at x = +-1 landed at x = 0)
        fcBodyId body = scene->bodies[index];
        fcVec3 moved = fcQuat_InvRotate(fcBody_GetOrientation(body), fcVec3_Sub(fcBody_GetPosition(body), def.position));
        shapes[k].localPosition = fcVec3_Sub(shapes[k].localPosition, moved);
        fcClearError();
        if (FC_IS_NULL(fcCreateShape(body, shapes + k))) {
            char sub[32];
            snprintf(sub, sizeof sub, "shapes[%d]", k);
            ok = fcFail(L, o.where, sub, "the engine refused the shape: %s", fcGetLastError());
        }
    }
    fcFreeShapeArrays(arrays, shapeCount);
    free(shapes);
    return ok;
}

// ---------------------------------------------------------------------------------------------------------------------
// Joints
// ---------------------------------------------------------------------------------------------------------------------

// The scene file's joint types; "linear" is a Pfaffian user constraint with constant rows.
typedef enum fcSceneJointKind {
    fc_kindBall, fc_kindHinge, fc_kindSlider, fc_kindFixed, fc_kindDistance, fc_kindUniversal, fc_kindPlanar,
    fc_kindBlade, fc_kindCoupling, fc_kindLinear, fc_kindRope, fc_kindCount
} fcSceneJointKind;

static const char* const fc_kindNames[fc_kindCount] = {"ball",   "hinge", "slider",   "fixed",  "distance", "universal",
                                                       "planar", "blade", "coupling", "linear", "rope"};
static const fcJointType fc_kindTypes[fc_kindCount] = {
    fc_ballJoint,      fc_hingeJoint,  fc_sliderJoint, fc_fixedJoint,    fc_distanceJoint,
    fc_universalJoint, fc_planarJoint, fc_bladeJoint,  fc_couplingJoint, fc_userConstraint, fc_ropeJoint};
#define FC_KIND_LIST "ball, hinge, slider, fixed, distance, universal, planar, blade, coupling, linear or rope"

enum {
    fc_keyName, fc_keyType, fc_keyBodyA, fc_keyBodyB, fc_keyAnchor, fc_keyAnchorA, fc_keyAnchorB, fc_keyAxis,
    fc_keyAxisB, fc_keyNormal, fc_keyLength, fc_keyStiffness, fc_keyDamping, fc_keyJointA, fc_keyJointB,
    fc_keyRatio, fc_keyOffset, fc_keyRows, fc_keyCollideConnected, fc_keyLimits, fc_keyMotor, fc_jointKeyCount
};
static const char* const fc_jointKeys[fc_jointKeyCount] = {
    "name",   "type",   "body_a",    "body_b",  "anchor",  "anchor_a", "anchor_b", "axis",
    "axis_b", "normal", "length",    "stiffness", "damping", "joint_a", "joint_b", "ratio",
    "offset", "rows",   "collide_connected", "limits", "motor"};

#define FC_BIT(k) (1u << (k))
#define FC_COMMON \
    (FC_BIT(fc_keyName) | FC_BIT(fc_keyType) | FC_BIT(fc_keyStiffness) | FC_BIT(fc_keyDamping) | \
     FC_BIT(fc_keyCollideConnected))
#define FC_BODIES (FC_BIT(fc_keyBodyA) | FC_BIT(fc_keyBodyB))
#define FC_DRIVEN (FC_BIT(fc_keyLimits) | FC_BIT(fc_keyMotor))  // a coordinate to limit and drive
// the keys each kind uses
static const uint32_t fc_kindKeys[fc_kindCount] = {
    FC_COMMON | FC_BODIES | FC_BIT(fc_keyAnchor),
    FC_COMMON | FC_BODIES | FC_BIT(fc_keyAnchor) | FC_BIT(fc_keyAxis) | FC_DRIVEN,
    FC_COMMON | FC_BODIES | FC_BIT(fc_keyAnchor) | FC_BIT(fc_keyAxis) | FC_DRIVEN,
    FC_COMMON | FC_BODIES | FC_BIT(fc_keyAnchor),
    FC_COMMON | FC_BODIES | FC_BIT(fc_keyAnchorA) | FC_BIT(fc_keyAnchorB) | FC_BIT(fc_keyLength),
    FC_COMMON | FC_BODIES | FC_BIT(fc_keyAnchor) | FC_BIT(fc_keyAxis) | FC_BIT(fc_keyAxisB),
    FC_COMMON | FC_BODIES | FC_BIT(fc_keyAnchor) | FC_BIT(fc_keyNormal),
    FC_COMMON | FC_BODIES | FC_BIT(fc_keyAnchor) | FC_BIT(fc_keyNormal) | FC_BIT(fc_keyAxis),
    FC_COMMON | FC_BIT(fc_keyJointA) | FC_BIT(fc_keyJointB) | FC_BIT(fc_keyRatio) | FC_BIT(fc_keyOffset),
    FC_COMMON | FC_BODIES | FC_BIT(fc_keyRows),
    // a rope is rigid (it pulls only, and cannot be soft)
    (FC_COMMON & ~(FC_BIT(fc_keyStiffness) | FC_BIT(fc_keyDamping))) | FC_BODIES | FC_BIT(fc_keyAnchorA) |
        FC_BIT(fc_keyAnchorB) | FC_BIT(fc_keyLength),
};

static void fcLinearRows_Fcn(const fcUserConstraintState* state, fcUserConstraintRow* rows, void* context)
{
    (void)state;
    const fcLinearRows* linear = context;
    memcpy(rows, linear->rows, sizeof rows[0] * (size_t)linear->rowCount);
}

static const char* const fc_rowKeys[] = {"jacobian_a", "jacobian_b", "rate"};

static bool fcParseLinearRows(fcLoader* L, const fcObj* o, fcLinearRows* linear)
{
    const cJSON* rowsJson = NULL;
    int count = fcArrayCount(L, o, "rows", &rowsJson);
    if (count < 0) return false;
    if (rowsJson == NULL) return fcFail(L, o->where, "rows", "missing: a linear joint needs 1 to %d rows", FC_MAX_USER_ROWS);
    if (count < 1 || count > FC_MAX_USER_ROWS)
        return fcFail(L, o->where, "rows", "must hold 1 to %d rows, got %d", FC_MAX_USER_ROWS, count);
    memset(linear, 0, sizeof *linear);
    linear->rowCount = count;
    int r = 0;
    for (const cJSON* e = rowsJson->child; e != NULL; e = e->next, ++r) {
        char where[FC_SCENE_PATH_CAPACITY + 32];
        snprintf(where, sizeof where, "%s.rows[%d]", o->where, r);
        fcObj ro;
        if (!fcObj_Open(L, &ro, e, where, fc_rowKeys, 3)) return false;
        double ja[6] = {0, 0, 0, 0, 0, 0}, jb[6] = {0, 0, 0, 0, 0, 0}, rate = 0;
        bool hasA = false, hasB = false;
        if (!fcGetNumbers(L, &ro, "jacobian_a", ja, 6, &hasA)) return false;
        if (!fcGetNumbers(L, &ro, "jacobian_b", jb, 6, &hasB)) return false;
        if (!fcGetNumber(L, &ro, "rate", &rate, NULL)) return false;
        double norm = 0;
        for (int k = 0; k < 6; ++k) norm += fabs(ja[k]) + fabs(jb[k]);
        if (!(norm > 0)) return fcFail(L, where, "jacobian_b", "the row is all zeros (give jacobian_a and/or jacobian_b)");
        for (int k = 0; k < 6; ++k) {
            linear->rows[r].jacobian[0][k] = (fcReal)ja[k];
            linear->rows[r].jacobian[1][k] = (fcReal)jb[k];
        }
        linear->rows[r].rate = (fcReal)rate;
    }
    return true;
}

// A joint reference for a coupling: an earlier hinge or slider.
static bool fcGetJointRef(fcLoader* L, const fcObj* o, const char* key, fcJointId* id)
{
    const char* name = NULL;
    bool has = false;
    if (!fcGetString(L, o, key, &name, &has)) return false;
    if (!has) return fcFail(L, o->where, key, "missing: a coupling needs the names of two hinge or slider joints");
    char shown[64];
    fcPrintable(shown, sizeof shown, name);
    int i = fcNameMap_Find(&L->jointMap, L->scene->jointNames, name);
    if (i < 0) return fcFail(L, o->where, key, "no earlier joint named \"%s\"", shown);
    fcJointType t = L->scene->jointTypes[i];
    if (t != fc_hingeJoint && t != fc_sliderJoint)
        return fcFail(L, o->where, key, "\"%s\" is a %s joint; a coupling needs a hinge or slider", shown,
                      fcScene_JointTypeName(L->scene, i));
    *id = L->scene->joints[i];
    return true;
}

// name, unique among joints and springs; records it at index and renames o->where.
static bool fcTakeJointName(fcLoader* L, fcObj* o, const char* list, int listIndex, int index)
{
    const char* name = NULL;
    bool has = false;
    if (!fcGetString(L, o, "name", &name, &has)) return false;
    if (!has) return fcFail(L, o->where, "name", "missing (every joint and spring needs a unique name)");
    if (!fcCheckName(L, o, "name", name)) return false;
    fcScene* scene = L->scene;
    scene->jointNames[index] = fcStrDup(name);
    scene->jointCount = index + 1;
    if (!fcNameMap_Insert(&L->jointMap, scene->jointNames, index))
        return fcFail(L, o->where, "name", "duplicate name \"%s\" (joint and spring names share one namespace)", name);
    snprintf(o->where, sizeof o->where, "%s[%d] (\"%s\")", list, listIndex, name);
    return true;
}

static const char* const fc_motorKeys[] = {"speed", "servo_target", "gain", "max_force"};

// A hinge's or slider's "limits": [lower, upper] (rad or m) and "motor": {"speed", "max_force"} or
// {"servo_target", "gain", "max_force"}.
static bool fcGetLimitsAndMotor(fcLoader* L, const fcObj* o, fcSceneJointKind kind, fcJointDef* def)
{
    const char* unit = kind == fc_kindHinge ? "rad" : "m";
    double limits[2];
    bool has = false;
    if (!fcGetNumbers(L, o, "limits", limits, 2, &has)) return false;
    if (has) {
        if (!(limits[0] <= limits[1]))
            return fcFail(L, o->where, "limits", "must be [lower, upper] with lower <= upper (%s), got [%g, %g]", unit,
                          limits[0], limits[1]);
        def->enableLimit = true;
        def->lowerLimit = (fcReal)limits[0];
        def->upperLimit = (fcReal)limits[1];
    }
    const cJSON* motorJson = fcObj_Get(o, "motor");
    if (motorJson == NULL) return true;
    char where[FC_SCENE_PATH_CAPACITY + 16];
    fcJoinPath(where, sizeof where, o->where, "motor");
    fcObj mo;
    if (!fcObj_Open(L, &mo, motorJson, where, fc_motorKeys, 4)) return false;
    double speed = 0, target = 0, gain = 10, maxForce = 0;
    bool hasSpeed = false, hasTarget = false, hasGain = false, hasMax = false;
    if (!fcGetNumber(L, &mo, "speed", &speed, &hasSpeed)) return false;
    if (!fcGetNumber(L, &mo, "servo_target", &target, &hasTarget)) return false;
    if (hasSpeed && hasTarget)
        return fcFail(L, mo.where, "servo_target", "give speed (a velocity motor) or servo_target (a servo), not both");
    if (!fcGetPositive(L, &mo, "gain", &gain, false, &hasGain)) return false;
    if (hasGain && !hasTarget) return fcFail(L, mo.where, "gain", "used only by a servo (with servo_target)");
    if (!fcGetPositive(L, &mo, "max_force", &maxForce, false, &hasMax)) return false;
    if (!hasMax)
        return fcFail(L, mo.where, "max_force", "missing: a motor needs its largest %s > 0 (%s)",
                      kind == fc_kindHinge ? "torque" : "force", kind == fc_kindHinge ? "N m" : "N");
    def->enableMotor = true;
    def->servo = hasTarget;
    def->motorSpeed = (fcReal)speed;
    def->servoTarget = (fcReal)target;
    def->servoGain = (fcReal)gain;
    def->maxMotorForce = (fcReal)maxForce;
    return true;
}

static bool fcParseJoint(fcLoader* L, const cJSON* json, int index)
{
    fcScene* scene = L->scene;
    char where[FC_SCENE_PATH_CAPACITY];
    snprintf(where, sizeof where, "joints[%d]", index);
    fcObj o;
    if (!fcObj_Open(L, &o, json, where, fc_jointKeys, fc_jointKeyCount)) return false;
    if (!fcTakeJointName(L, &o, "joints", index, index)) return false;

    const char* typeName = NULL;
    bool has = false;
    if (!fcGetString(L, &o, "type", &typeName, &has)) return false;
    if (!has) return fcFail(L, o.where, "type", "missing (" FC_KIND_LIST ")");
    int kind = 0;
    while (kind < fc_kindCount && strcmp(fc_kindNames[kind], typeName) != 0) ++kind;
    if (kind == fc_kindCount) {
        char shown[64];
        fcPrintable(shown, sizeof shown, typeName);
        return fcFail(L, o.where, "type", "unknown joint type \"%s\" (" FC_KIND_LIST ")", shown);
    }
    scene->jointTypes[index] = fc_kindTypes[kind];
    for (int k = 0; k < fc_jointKeyCount; ++k)
        if (o.item[k] != NULL && !(fc_kindKeys[kind] & FC_BIT(k))) {
            if (kind == fc_kindCoupling && (k == fc_keyBodyA || k == fc_keyBodyB))
                return fcFail(L, o.where, fc_jointKeys[k], "not used by a coupling joint (it acts on the bodies of "
                                                           "joint_a and joint_b)");
            if (kind == fc_kindRope && (k == fc_keyStiffness || k == fc_keyDamping))
                return fcFail(L, o.where, fc_jointKeys[k], "not used by a rope joint: a rope is rigid and only pulls "
                                                           "(use a soft distance joint or a spring for an elastic string)");
            if (k == fc_keyLimits || k == fc_keyMotor)
                return fcFail(L, o.where, fc_jointKeys[k], "not used by a %s joint (only a hinge or a slider has a "
                                                           "coordinate to %s)",
                              fc_kindNames[kind], k == fc_keyLimits ? "limit" : "drive");
            return fcFail(L, o.where, fc_jointKeys[k], "not used by a %s joint", fc_kindNames[kind]);
        }

    // soft rows; contacts between the two bodies
    double stiffness = 0, damping = 0;
    if (!fcGetPositive(L, &o, "stiffness", &stiffness, true, NULL)) return false;
    if (!fcGetPositive(L, &o, "damping", &damping, true, NULL)) return false;
    bool collideConnected = false;
    if (!fcGetBool(L, &o, "collide_connected", &collideConnected)) return false;

    // bodies
    fcBodyId bodyA = fc_nullBodyId, bodyB = fc_nullBodyId;
    int ia = -1, ib = -1;
    if (kind != fc_kindCoupling) {
        if (!fcGetBodyRef(L, &o, "body_a", false, &bodyA, &ia)) return false;
        if (!fcGetBodyRef(L, &o, "body_b", true, &bodyB, &ib)) return false;
        if (ib < 0) return fcFail(L, o.where, "body_b", "must be a body, not the world (put the world in body_a)");
        if (ia == ib) return fcFail(L, o.where, "body_b", "is the same body as body_a");
    }

    fcClearError();
    if (kind == fc_kindLinear) {
        fcLinearRows* linear = L->internal->linear + L->internal->linearCount;
        if (!fcParseLinearRows(L, &o, linear)) return false;
        L->internal->linearCount++;
        fcUserConstraintDef def = fcDefaultUserConstraintDef();
        def.name = scene->jointNames[index];
        def.bodyA = bodyA;
        def.bodyB = bodyB;
        def.rowCount = linear->rowCount;
        def.holonomic = false;
        def.fcn = fcLinearRows_Fcn;
        def.context = linear;
        def.stiffness = (fcReal)stiffness;
        def.damping = (fcReal)damping;
        def.collideConnected = collideConnected;
        scene->joints[index] = fcCreateUserConstraint(scene->world, &def);
    } else {
        fcJointDef def = fcDefaultJointDef(fc_kindTypes[kind]);
        def.name = scene->jointNames[index];
        def.bodyA = bodyA;
        def.bodyB = bodyB;
        def.stiffness = (fcReal)stiffness;
        def.damping = (fcReal)damping;
        def.collideConnected = collideConnected;
        // the anchor defaults to body_b's centre
        def.anchor = FC_IS_NON_NULL(bodyB) ? fcBody_GetPosition(bodyB) : fcV3(0, 0, 0);
        if (!fcGetVec3(L, &o, "anchor", &def.anchor, NULL)) return false;
        const char* need = fc_kindNames[kind];
        char needs[32];
        snprintf(needs, sizeof needs, "a %s joint", need);
        switch (kind) {
        case fc_kindHinge:
        case fc_kindSlider:
            if (!fcGetDirection(L, &o, "axis", &def.axis, true, needs)) return false;
            if (!fcGetLimitsAndMotor(L, &o, (fcSceneJointKind)kind, &def)) return false;
            break;
        case fc_kindUniversal:
            if (!fcGetDirection(L, &o, "axis", &def.axis, true, needs)) return false;
            if (!fcGetDirection(L, &o, "axis_b", &def.axisB, true, needs)) return false;
            if (FC_FABS(fcVec3_Dot(def.axis, def.axisB)) > 1e-6)
                return fcFail(L, o.where, "axis_b", "must be perpendicular to axis (their unit vectors' dot product is %g)",
                              (double)fcVec3_Dot(def.axis, def.axisB));
            break;
        case fc_kindPlanar:
            if (!fcGetDirection(L, &o, "normal", &def.normal, true, needs)) return false;
            break;
        case fc_kindBlade:
            if (!fcGetDirection(L, &o, "normal", &def.normal, true, needs)) return false;
            if (!fcGetDirection(L, &o, "axis", &def.axis, true, needs)) return false;
            if (FC_FABS(fcVec3_Dot(def.axis, def.normal)) > 1e-6)
                return fcFail(L, o.where, "axis", "must be perpendicular to normal (the blade runs in the plane; their "
                                                  "unit vectors' dot product is %g)",
                              (double)fcVec3_Dot(def.axis, def.normal));
            break;
        case fc_kindDistance:
        case fc_kindRope: {
            def.anchorA = ia >= 0 ? fcBody_GetPosition(bodyA) : fcV3(0, 0, 0);
            def.anchorB = fcBody_GetPosition(bodyB);
            if (!fcGetVec3(L, &o, "anchor_a", &def.anchorA, NULL)) return false;
            if (!fcGetVec3(L, &o, "anchor_b", &def.anchorB, NULL)) return false;
            double length = -1;
            bool hasLength = false;
            if (!fcGetPositive(L, &o, "length", &length, false, &hasLength)) return false;
            def.length = hasLength ? (fcReal)length : (fcReal)-1;
            if (!hasLength && !(fcVec3_Distance(def.anchorA, def.anchorB) > 0))
                return fcFail(L, o.where, "anchor_b", "coincides with anchor_a: the initial distance is 0 (give a length "
                                                      "> 0 or move the anchors apart)");
            break;
        }
        case fc_kindCoupling: {
            if (!fcGetJointRef(L, &o, "joint_a", &def.jointA)) return false;
            if (!fcGetJointRef(L, &o, "joint_b", &def.jointB)) return false;
            if (FC_ID_EQUALS(def.jointA, def.jointB)) return fcFail(L, o.where, "joint_b", "is the same joint as joint_a");
            double ratio = 1, offset = 0;
            if (!fcGetNumber(L, &o, "ratio", &ratio, NULL)) return false;
            if (!fcGetNumber(L, &o, "offset", &offset, NULL)) return false;
            def.ratio = (fcReal)ratio;
            def.offset = (fcReal)offset;
            // the engine finds the moving bodies itself; name the coupled joints' bodies for completeness
            def.bodyA = fcJoint_GetBodyB(def.jointA);
            def.bodyB = fcJoint_GetBodyB(def.jointB);
            break;
        }
        default:
            break;
        }
        scene->joints[index] = fcCreateJoint(scene->world, &def);
    }
    if (FC_IS_NULL(scene->joints[index]))
        return fcFail(L, o.where, NULL, "the engine refused the joint: %s", fcGetLastError());
    return true;
}

static const char* const fc_springKeys[] = {"name",      "body_a",      "body_b", "anchor_a",
                                            "anchor_b",  "stiffness",   "rest_length", "damping"};

static bool fcParseSpring(fcLoader* L, const cJSON* json, int springIndex, int index)
{
    fcScene* scene = L->scene;
    char where[FC_SCENE_PATH_CAPACITY];
    snprintf(where, sizeof where, "springs[%d]", springIndex);
    fcObj o;
    if (!fcObj_Open(L, &o, json, where, fc_springKeys, (int)(sizeof fc_springKeys / sizeof fc_springKeys[0])))
        return false;
    if (!fcTakeJointName(L, &o, "springs", springIndex, index)) return false;
    scene->jointTypes[index] = fc_distanceJoint;

    fcSpringDef def = fcDefaultSpringDef();
    def.name = scene->jointNames[index];
    int ia = -1, ib = -1;
    if (!fcGetBodyRef(L, &o, "body_a", false, &def.bodyA, &ia)) return false;
    if (!fcGetBodyRef(L, &o, "body_b", true, &def.bodyB, &ib)) return false;
    if (ib < 0) return fcFail(L, o.where, "body_b", "must be a body, not the world (put the world in body_a)");
    if (ia == ib) return fcFail(L, o.where, "body_b", "is the same body as body_a");
    def.anchorA = ia >= 0 ? fcBody_GetPosition(def.bodyA) : fcV3(0, 0, 0);
    def.anchorB = fcBody_GetPosition(def.bodyB);
    if (!fcGetVec3(L, &o, "anchor_a", &def.anchorA, NULL)) return false;
    if (!fcGetVec3(L, &o, "anchor_b", &def.anchorB, NULL)) return false;
    double stiffness = 0, rest = -1, damping = 0;
    bool has = false;
    if (!fcGetNumber(L, &o, "stiffness", &stiffness, &has)) return false;
    if (!has) return fcFail(L, o.where, "stiffness", "missing: a spring needs a stiffness > 0 (N/m)");
    if (!fcCheckPositive(L, &o, "stiffness", stiffness, false)) return false;
    if (!fcGetPositive(L, &o, "rest_length", &rest, true, &has)) return false;
    if (!fcGetPositive(L, &o, "damping", &damping, true, NULL)) return false;
    def.stiffness = (fcReal)stiffness;
    def.restLength = has ? (fcReal)rest : (fcReal)-1;
    def.damping = (fcReal)damping;
    fcClearError();
    scene->joints[index] = fcCreateSpring(scene->world, &def);
    if (FC_IS_NULL(scene->joints[index]))
        return fcFail(L, o.where, NULL, "the engine refused the spring: %s", fcGetLastError());
    return true;
}

// ---------------------------------------------------------------------------------------------------------------------
// Top level
// ---------------------------------------------------------------------------------------------------------------------

static const char* const fc_expectKeys[] = {"joint", "peak_force", "peak_moment", "note"};

static bool fcParseExpectation(fcLoader* L, const cJSON* json, int index)
{
    char where[FC_SCENE_PATH_CAPACITY];
    snprintf(where, sizeof where, "expected[%d]", index);
    fcObj o;
    if (!fcObj_Open(L, &o, json, where, fc_expectKeys, 4)) return false;
    fcSceneExpectation* e = L->scene->expectations + index;
    const char* joint = NULL;
    const char* note = "";
    bool has = false;
    if (!fcGetString(L, &o, "joint", &joint, &has)) return false;
    if (!has) return fcFail(L, where, "joint", "missing (the name of a joint or spring)");
    e->joint = fcNameMap_Find(&L->jointMap, L->scene->jointNames, joint);
    if (e->joint < 0) {
        char shown[64];
        fcPrintable(shown, sizeof shown, joint);
        return fcFail(L, where, "joint", "no joint or spring named \"%s\"", shown);
    }
    if (!fcGetPositive(L, &o, "peak_force", &e->peakForce, true, &e->hasPeakForce)) return false;
    if (!fcGetPositive(L, &o, "peak_moment", &e->peakMoment, true, &e->hasPeakMoment)) return false;
    if (!e->hasPeakForce && !e->hasPeakMoment) return fcFail(L, where, "peak_force", "missing: give peak_force and/or peak_moment");
    if (!fcGetString(L, &o, "note", &note, NULL)) return false;
    e->note = fcStrDup(note);
    return true;
}

static const char* const fc_sceneKeys[] = {
    "name",     "description", "gravity", "timestep", "duration", "stabilization", "baumgarte", "projection_tolerance",
    "projection_max_iterations", "sleeping", "contact_substeps", "contact_iterations", "contact_slop", "friction_model", "continuous",
    "bodies", "joints", "springs", "expected"};

// Line and column (1-based) of position p in text.
static void fcLineColumn(const char* text, const char* p, int* line, int* column)
{
    *line = 1;
    *column = 1;
    for (const char* c = text; c < p && *c != '\0'; ++c) {
        if (*c == '\n') {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

static bool fcLoadJson(fcLoader* L, const cJSON* root, const char* fileName)
{
    fcScene* scene = L->scene;
    fcObj o;
    if (!fcObj_Open(L, &o, root, "", fc_sceneKeys, (int)(sizeof fc_sceneKeys / sizeof fc_sceneKeys[0]))) return false;

    // settings
    const char* name = NULL;
    const char* description = "";
    bool has = false;
    if (!fcGetString(L, &o, "name", &name, &has)) return false;
    if (!fcGetString(L, &o, "description", &description, NULL)) return false;
    if (has) {
        scene->name = fcStrDup(name);
    } else {
        // the file name without directory and extension
        const char* base = strrchr(fileName, '/');
        base = base ? base + 1 : fileName;
        scene->name = fcStrDup(base);
        char* dot = strrchr(scene->name, '.');
        if (dot != NULL && dot != scene->name) *dot = '\0';
    }
    scene->description = fcStrDup(description);

    fcWorldDef def = fcDefaultWorldDef();
    if (!fcGetVec3(L, &o, "gravity", &def.gravity, NULL)) return false;
    double h = 1.0 / 60.0, duration = 5, beta = 0.2, tolerance = 1e-10, iterations = 20;
    if (!fcGetNumber(L, &o, "timestep", &h, NULL)) return false;
    if (!(h >= 1e-9 && h <= 1)) return fcFail(L, "", "timestep", "must be in [1e-9, 1] s (the engine's range), got %g", h);
    if (!fcGetNumber(L, &o, "duration", &duration, NULL)) return false;
    if (!(duration > 0)) return fcFail(L, "", "duration", "must be > 0 s, got %g", duration);
    if (!fcGetNumber(L, &o, "baumgarte", &beta, NULL)) return false;
    if (!(beta > 0 && beta <= 1)) return fcFail(L, "", "baumgarte", "must be > 0 and <= 1, got %g", beta);
    if (!fcGetNumber(L, &o, "projection_tolerance", &tolerance, NULL)) return false;
    if (!(tolerance > 0)) return fcFail(L, "", "projection_tolerance", "must be > 0, got %g", tolerance);
    if (!fcGetNumber(L, &o, "projection_max_iterations", &iterations, NULL)) return false;
    if (!(iterations >= 1 && iterations <= 1000 && iterations == floor(iterations)))  // the engine's range
        return fcFail(L, "", "projection_max_iterations", "must be a whole number from 1 to 1000, got %g", iterations);
    if (!fcGetBool(L, &o, "sleeping", &def.enableSleeping)) return false;
    if (!fcGetBool(L, &o, "continuous", &def.continuousCollision)) return false;
    const char* counts[2] = {"contact_substeps", "contact_iterations"};
    int* countTargets[2] = {&def.contactSubsteps, &def.contactIterations};
    int countMax[2] = {64, 10000};
    for (int k = 0; k < 2; ++k) {
        double n = 0;
        bool present = false;
        if (!fcGetNumber(L, &o, counts[k], &n, &present)) return false;
        if (!present) continue;
        if (!(n >= 1 && n <= countMax[k] && n == floor(n)))
            return fcFail(L, "", counts[k], "must be a whole number from 1 to %d, got %g", countMax[k], n);
        *countTargets[k] = (int)n;
    }
    double slop = def.contactSlop;
    if (!fcGetPositive(L, &o, "contact_slop", &slop, true, NULL)) return false;
    if (slop > 1) return fcFail(L, "", "contact_slop", "must be at most 1 m, got %g", slop);
    def.contactSlop = (fcReal)slop;
    const char* friction = "cone";
    if (!fcGetString(L, &o, "friction_model", &friction, NULL)) return false;
    if (strcmp(friction, "cone") != 0 && strcmp(friction, "pyramid") != 0) {
        char shown[64];
        fcPrintable(shown, sizeof shown, friction);
        return fcFail(L, "", "friction_model", "must be cone or pyramid, got \"%s\"", shown);
    }
    def.frictionCone = strcmp(friction, "cone") == 0;
    const char* stabilization = "projection";
    if (!fcGetString(L, &o, "stabilization", &stabilization, NULL)) return false;
    if (!fcScene_ParseStabilization(stabilization, &def.stabilization)) {
        char shown[64];
        fcPrintable(shown, sizeof shown, stabilization);
        return fcFail(L, "", "stabilization", "must be baumgarte, projection or none, got \"%s\"", shown);
    }
    def.timestep = (fcReal)h;
    def.baumgarte = (fcReal)beta;
    def.projectionTolerance = (fcReal)tolerance;
    def.projectionMaxIterations = (int)iterations;
    scene->timestep = h;
    scene->duration = duration;
    scene->stabilization = def.stabilization;

    // sizes of the three lists, so that every array is allocated once
    const cJSON *bodiesJson = NULL, *jointsJson = NULL, *springsJson = NULL, *expectJson = NULL;
    int bodyCount = fcArrayCount(L, &o, "bodies", &bodiesJson);
    if (bodyCount < 0) return false;
    int jointCount = fcArrayCount(L, &o, "joints", &jointsJson);
    if (jointCount < 0) return false;
    int springCount = fcArrayCount(L, &o, "springs", &springsJson);
    if (springCount < 0) return false;
    int expectCount = fcArrayCount(L, &o, "expected", &expectJson);
    if (expectCount < 0) return false;

    fcClearError();
    scene->world = fcCreateWorld(&def);
    if (FC_IS_NULL(scene->world)) return fcFail(L, "", NULL, "the engine refused the world settings: %s", fcGetLastError());

    scene->bodies = fcSceneCalloc((size_t)bodyCount, sizeof(fcBodyId));
    scene->bodyNames = fcSceneCalloc((size_t)bodyCount, sizeof(char*));
    fcNameMap_Init(&L->bodyMap, bodyCount);
    int i = 0;
    for (const cJSON* e = bodiesJson ? bodiesJson->child : NULL; e != NULL; e = e->next, ++i)
        if (!fcParseBody(L, e, i)) return false;

    int total = jointCount + springCount;
    scene->joints = fcSceneCalloc((size_t)total, sizeof(fcJointId));
    scene->jointNames = fcSceneCalloc((size_t)total, sizeof(char*));
    scene->jointTypes = fcSceneCalloc((size_t)total, sizeof(fcJointType));
    L->internal->linear = fcSceneCalloc((size_t)jointCount, sizeof(fcLinearRows));
    fcNameMap_Init(&L->jointMap, total);
    i = 0;
    for (const cJSON* e = jointsJson ? jointsJson->child : NULL; e != NULL; e = e->next, ++i)
        if (!fcParseJoint(L, e, i)) return false;
    int s = 0;
    for (const cJSON* e = springsJson ? springsJson->child : NULL; e != NULL; e = e->next, ++s, ++i)
        if (!fcParseSpring(L, e, s, i)) return false;
    scene->springCount = springCount;

    scene->expectations = fcSceneCalloc((size_t)expectCount, sizeof(fcSceneExpectation));
    i = 0;
    for (const cJSON* e = expectJson ? expectJson->child : NULL; e != NULL; e = e->next, ++i) {
        scene->expectationCount = i + 1;
        if (!fcParseExpectation(L, e, i)) return false;
    }
    return true;
}

bool fcScene_LoadString(const char* json, const char* nameForMessages, fcScene* out, char* err, size_t errSize)
{
    char localErr[8];
    memset(out, 0, sizeof *out);
    fcLoader L;
    memset(&L, 0, sizeof L);
    L.file = nameForMessages != NULL ? nameForMessages : "<string>";
    L.err = err != NULL && errSize > 0 ? err : localErr;
    L.errSize = err != NULL && errSize > 0 ? errSize : sizeof localErr;
    L.err[0] = '\0';
    L.scene = out;
    if (json == NULL) return fcFail(&L, "", NULL, "no scene text");
    // cJSON ends a string at an escaped NUL: "bob\u0000.x" was loaded as the name "bob", "mass\u0000zz" as the key mass
    for (const char* c = json; *c != '\0'; ++c) {
        if (*c != '\\') continue;
        if (strncmp(c + 1, "u0000", 5) == 0) {
            int line, column;
            fcLineColumn(json, c, &line, &column);
            return fcFail(&L, "", NULL, "line %d, column %d: a \\u0000 escape: names, keys and strings cannot hold a NUL",
                          line, column);
        }
        if (c[1] != '\0') ++c;  // the escaped character (an escaped backslash does not start another escape)
    }

    cJSON* root = cJSON_ParseWithOpts(json, NULL, true);
    if (root == NULL) {
        const char* p = cJSON_GetErrorPtr();
        size_t length = strlen(json);
        if (p == NULL || p < json || p > json + length) p = json + length;
        int line, column;
        fcLineColumn(json, p, &line, &column);
        // cJSON points at the last byte when the text ends early
        bool atEnd = true;
        for (const char* c = p + (*p != '\0'); *c != '\0'; ++c) atEnd = atEnd && isspace((unsigned char)*c);
        if (length == 0 || atEnd)
            return fcFail(&L, "", NULL, "line %d, column %d: invalid JSON: unexpected end of the text (truncated file?)",
                          line, column);
        char near[48];
        size_t n = 0;
        for (const char* c = p; *c != '\0' && *c != '\n' && n < 20; ++c) near[n++] = isprint((unsigned char)*c) ? *c : '?';
        near[n] = '\0';
        return fcFail(&L, "", NULL, "line %d, column %d: invalid JSON near \"%s\"", line, column, near);
    }

    L.internal = fcSceneCalloc(1, sizeof(fcSceneInternal));
    out->internal = L.internal;
    bool ok = fcLoadJson(&L, root, L.file);
    cJSON_Delete(root);
    fcNameMap_Free(&L.bodyMap);
    fcNameMap_Free(&L.jointMap);
    if (!ok) fcScene_Free(out);
    return ok;
}

// the largest scene file read (a mesh of a million triangles is some 80 MB of JSON): a path such as /dev/zero or a
// pipe that never ends is refused rather than read until memory runs out
#define FC_SCENE_MAX_BYTES ((size_t)256 << 20)

bool fcScene_Load(const char* path, fcScene* out, char* err, size_t errSize)
{
    memset(out, 0, sizeof *out);
    char localErr[8];
    if (err == NULL || errSize == 0) err = localErr, errSize = sizeof localErr;
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, errSize, "%s: cannot open the scene file: %s", path, strerror(errno));
        return false;
    }
    size_t capacity = 1 << 16, length = 0;
    char* text = malloc(capacity);
    while (text != NULL) {
        length += fread(text + length, 1, capacity - 1 - length, f);
        if (length < capacity - 1) break;
        if (capacity >= FC_SCENE_MAX_BYTES) {
            free(text);
            fclose(f);
            snprintf(err, errSize, "%s: the scene file is larger than %zu MB", path, FC_SCENE_MAX_BYTES >> 20);
            return false;
        }
        capacity *= 2;
        char* bigger = realloc(text, capacity);
        if (bigger == NULL) free(text);
        text = bigger;
    }
    bool readError = ferror(f) != 0;
    fclose(f);
    if (text == NULL) {
        snprintf(err, errSize, "%s: out of memory reading the scene file", path);
        return false;
    }
    if (readError) {
        free(text);
        snprintf(err, errSize, "%s: cannot read the scene file", path);
        return false;
    }
    text[length] = '\0';
    if (strlen(text) != length) {
        int line, column;
        fcLineColumn(text, text + strlen(text), &line, &column);
        free(text);
        snprintf(err, errSize, "%s: line %d, column %d: invalid JSON: a NUL byte", path, line, column);
        return false;
    }
    bool ok = fcScene_LoadString(text, path, out, err, errSize);
    free(text);
    return ok;
}

void fcScene_Free(fcScene* scene)
{
    if (scene == NULL) return;
    // the world goes first: its user constraints point into scene->internal
    if (FC_IS_NON_NULL(scene->world)) fcDestroyWorld(scene->world);
    for (int i = 0; i < scene->bodyCount; ++i) free(scene->bodyNames[i]);
    for (int i = 0; i < scene->jointCount; ++i) free(scene->jointNames[i]);
    for (int i = 0; i < scene->expectationCount; ++i) free(scene->expectations[i].note);
    free(scene->bodies);
    free(scene->bodyNames);
    free(scene->joints);
    free(scene->jointNames);
    free(scene->jointTypes);
    free(scene->expectations);
    free(scene->name);
    free(scene->description);
    fcSceneInternal* internal = scene->internal;
    if (internal != NULL) free(internal->linear);
    free(internal);
    memset(scene, 0, sizeof *scene);
}

int fcScene_FindBody(const fcScene* scene, const char* name)
{
    for (int i = 0; i < scene->bodyCount; ++i)
        if (scene->bodyNames[i] != NULL && strcmp(scene->bodyNames[i], name) == 0) return i;
    return -1;
}

int fcScene_FindJoint(const fcScene* scene, const char* name)
{
    for (int i = 0; i < scene->jointCount; ++i)
        if (scene->jointNames[i] != NULL && strcmp(scene->jointNames[i], name) == 0) return i;
    return -1;
}

bool fcScene_ParseNumber(const char* text, double* out)
{
    char* end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v)) return false;
    *out = v;
    return true;
}

bool fcScene_ParseWhole(const char* text, long lo, long hi, long* out)
{
    char* end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || v < lo || v > hi) return false;
    *out = v;
    return true;
}

bool fcScene_ParseStabilization(const char* text, fcStabilization* out)
{
    if (strcmp(text, "baumgarte") == 0) {
        *out = fc_stabilizeBaumgarte;
    } else if (strcmp(text, "projection") == 0) {
        *out = fc_stabilizeProjection;
    } else if (strcmp(text, "none") == 0) {
        *out = fc_stabilizeNone;
    } else {
        return false;
    }
    return true;
}

const char* fcScene_StabilizationName(fcStabilization mode)
{
    switch (mode) {
    case fc_stabilizeBaumgarte: return "baumgarte";
    case fc_stabilizeProjection: return "projection";
    case fc_stabilizeNone: return "none";
    }
    return "?";
}

const char* fcScene_JointTypeName(const fcScene* scene, int jointIndex)
{
    if (jointIndex < 0 || jointIndex >= scene->jointCount) return "?";
    if (jointIndex >= scene->jointCount - scene->springCount) return "spring";
    for (int k = 0; k < fc_kindCount; ++k)
        if (fc_kindTypes[k] == scene->jointTypes[jointIndex]) return fc_kindNames[k];
    return "?";
}
