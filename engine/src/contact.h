// SPDX-License-Identifier: MIT
// Contacts between shapes: the pair cache fed by the broadphase, the manifolds kept across steps (their
// impulses warm-start the next step), and the contact stages of the step.
//   contact.c        pairs, narrowphase update with id matching, begin/end and sensor events, the API
//   contact_solve.c  the contact LCP by projected Gauss-Seidel, coupled to the exact joint solve; the
//                    position-level pass that pushes overlaps back to the slop
#ifndef FC_CONTACT_H
#define FC_CONTACT_H

#include "broadphase.h"
#include "collide.h"

#define FC_MAX_PAIR_MANIFOLDS 4

// A substep takes contactIterations sweeps, and goes on, up to FC_CONTACT_MOST_SWEEPS times as many, while some
// manifold's normal impulses still move by more than FC_CONTACT_SETTLED of its load (the sum of its lambda_n) in a
// sweep: a stack starting from rest without a warm start, an impact. Warm-started, a resting stack settles within
// its sweeps. Started cold, the 210-box pyramid sank 8 mm (0.4 mm a contact, below the slop, so for good) in its
// first steps at 2 x 12 sweeps; settling first, it sinks 5.2 mm at 2 x 8. Up to 4 times as many sweeps settled it
// better (3.5 mm) but the rain of S4, never settled, took 45 % more instructions (twice as many: 10 %).
#define FC_CONTACT_SETTLED 0.01
#define FC_CONTACT_MOST_SWEEPS 2

// The chord of a turn (docs/physics.md, 4d). A sticking contact's friction rows ask that its two material points stay
// together, but of the velocities (J v = 0), while the integrator moves a body's centre along a straight line,
// x += h v, and turns it by exp(h w): for two bodies carried round together at w the offset of their centres
// r = x_b - x_a turns by R(h w), and after the substep the points are apart by
//   (R(h w) - I) r - h w x r = a (w x r) + b w x (w x r),  a = sin(|w| h) / |w| - h,  b = (1 - cos(|w| h)) / |w|^2,
// of order h^2 |w|^2 |r| (the centripetal part). Asked for zero, a box held by static friction on a turntable
// (omega^2 r < mu g) moved outward by about r (omega h)^2 / 2 a step and left the table (omega 3 rad/s, r 0.5 m,
// mu 0.8 at 60 Hz: off it after 7 s; on a 200 kg table turned by a hinge motor, after 17 s). So the friction rows ask
// for a tangential velocity g dv at the substep's start, dv the centres' relative velocity, g = a + b w x the gain
// that makes the rows and the integrator turn a carried body, or one rolling across the turning face (a ball orbits
// at 2/7 of a turntable's rate), by exactly the substep's turn; w is the pair's turn: a face's under a round body, a
// still body's, else both bodies' weighed by their inverse masses (contact_solve.c, fcContacts_Chord and
// fcContacts_ChordTargets).

typedef struct fcContactPoint {
    fcVec3 localA, localB;    // the contact point in each body's frame (relative to its centre)
    fcVec3 rA, rB;            // the same in the world frame at the start of the step
    fcReal separation;        // at the start of the step, m
    fcReal normalImpulse;     // of the (sub)step being solved, N s (warm-started from the last one)
    fcReal totalNormalImpulse;  // over the whole step (all substeps): what is reported
    fcReal lastNormalImpulse; // the last step's, for release dating
    fcReal trialImpulse;      // the unclamped normal impulse of the last sweep (negative: it wanted to pull)
    uint32_t id;
    bool slipping, wasSlipping;
} fcContactPoint;

typedef struct fcContactManifold {
    fcVec3 normal, tangent[2];
    fcVec3 localNormal;       // the normal in body a's frame at the narrowphase that made the points (fcContacts_Keep)
    int pointCount;
    uint32_t key;
    fcContactPoint points[FC_MAX_MANIFOLD_POINTS];
    // Coulomb friction of the whole manifold, at its points' centre (a patch): along tangent[0], tangent[1] (N s)
    // and about the normal (N m s); of the (sub)step being solved (warm-started from the last one) and over the step
    fcReal friction[3], totalFriction[3];
    fcReal rollingImpulse[2], twistImpulse;
    fcReal letGo;             // this step: when its load fell to zero for good, in substeps from the step's start; -1: it did not
} fcContactManifold;

typedef struct fcContact {
    // every field but the manifolds first, together: the collide stage's passes over all pair slots read these
    // and, for most pairs, nothing else (a pair is some 900 bytes with its manifold)
    bool inUse;
    bool touching;            // a point within the slop
    bool sensor;              // one of the shapes is a sensor: overlap only
    bool enabled;             // pre-solve may switch it off for the step
    // the narrowphase's verdict, left for the collide stage's sequential pass (the narrowphase runs in parallel
    // and must not touch the pair cache or the event list)
    bool overlap;             // the fat boxes still overlap (else the pair is destroyed)
    int8_t event;             // the contact or sensor event to report (fcEventType), -1 none
    bool keepable, keptInA;   // fcContacts_Keep (below)
    bool fresh;               // made since the last narrowphase: a sensor pair is collided once even between sleepers
    int shapeA, shapeB;       // shapeA < shapeB
    int bodyA, bodyB;
    int manifoldCount;
    fcReal friction, restitution, rollingFriction, torsionalFriction;
    // room for the pair's manifolds: `first` for a convex pair, which has one at most; a mesh pair, one a touching
    // triangle, takes a block of FC_MAX_PAIR_MANIFOLDS (fcContactSet.meshBlocks) when it is made. With room for four
    // in every pair, a pair took 3.4 KB, most of it never written: S4's 4400 pairs touched 15 MB of new pages.
    fcContactManifold* manifolds;
    fcContactManifold first;
} fcContact;

// Where a pair's narrowphase last found its points, and the margin it collided within: while the pair stays there, it
// keeps its points (fcContacts_Keep; fcContact.keepable: flat shapes only). The narrowphase leaves the world poses
// (b's position from a's, the two orientations); the first keep test that may pass turns them into body b's pose in
// a's frame (fcContact.keptInA: position and orientation[0]) and the normals into a's frame, so that a moving pile's
// pairs, collided again every step, pay for no rotation. Per pair slot (fcContactSet.slotKept), apart from the
// pairs' records: in those, a moving pile's pairs read and wrote one more line each (S4's collide stage 15 to 20 %
// slower for 3 % more instructions).
typedef struct fcContactKept {
    fcReal margin;
    fcVec3 position;
    fcQuat orientation[2];
} fcContactKept;

// The velocity solve works on compact copies: the velocities of the moving bodies (solver bodies), and the
// manifolds in blocks of four lanes, a lane a manifold, no dynamic body in two lanes of a block nor in two
// blocks of one colour, so that a block's rows are solved four at a time (simd.h). Per row (a point's normal, a
// manifold's three of friction) the block holds the angular Jacobians and their images under the inverse inertia,
// so that a row update is a few multiply-adds on contiguous memory.
typedef struct fcSolverBody {
    fcVec3 v, w;
    fcReal pad[2];  // two rows of four reals, gathered by transposes
} fcSolverBody;

#define FC_LANES 4
#define FC_CONTACT_COLORS 64  // the solver's colours: one bit each of a body's uint64_t mask of colours it is in

// one row per lane: J = [-d, -(r_a x d), d, r_b x d] along the manifold's direction d
typedef struct fcContactRow4 {
    fcReal angA[3][FC_LANES], angB[3][FC_LANES];    // r_a x d, r_b x d
    fcReal iangA[3][FC_LANES], iangB[3][FC_LANES];  // I_a^-1 (r_a x d), I_b^-1 (r_b x d)
    fcReal mass[FC_LANES];                          // 1 / (J M^-1 J^T)
} fcContactRow4;

typedef struct fcContactPoint4 {
    fcContactRow4 n;
    fcReal localA[3][FC_LANES], localB[3][FC_LANES];  // the anchors in the bodies' frames
    fcReal separation[FC_LANES];                      // at the collide stage
    fcReal bounced[FC_LANES], bounceTarget[FC_LANES];  // of the substep: 1: bounced; the separation it takes the point to
    fcReal bias[FC_LANES];
    fcReal weight[FC_LANES];   // its share of where its manifold's friction acts (fcContacts_PatchCentre; 0 past a lane's points)
    fcReal deepest[FC_LANES];  // 1: the manifold's deepest point, whose level along n the friction takes
    fcReal normalImpulse[FC_LANES], trialImpulse[FC_LANES];
    fcReal totalNormalImpulse[FC_LANES];  // over the step's substeps
} fcContactPoint4;

// rolling and spinning resistance: angular rows about t1, t2, n bounded by an arm times the manifold's lambda_n
typedef struct fcContactSpin4 {
    fcReal spinA[3][3][FC_LANES], spinB[3][3][FC_LANES];  // I^-1 d for d = t1, t2, n
    fcReal mass[3][FC_LANES], arm[3][FC_LANES], impulse[3][FC_LANES];
} fcContactSpin4;

// A manifold whose surfaces are round where they touch (a sphere or a capsule on one side at least) turns its
// normal as the bodies move: the skier on a dome, a ball rolling off a box's edge. Kept fixed over a step, the
// normal makes the contact the tangent plane of the collide stage, which launches the body off a curved surface
// a little every step. So such a lane measures, every substep, its normal, separations and lever arms afresh
// from the round shapes' cores (a sphere's centre, a capsule's segment), in the bodies' frames:
//   cores:  n along the cores' closest points (a flat side's edge or corner is a core of radius 0)
//   faceA:  a touches with a face, b is round: n turns with body a; faceB the other way round
// and s_i = n . (C_b,i - C_a,i) - offset_i for point i's core points (a face's: its anchor), the offset fixed at
// the collide stage so that s_i starts at the collide stage's separation.
enum { fc_curveNone = 0, fc_curveCores, fc_curveFaceA, fc_curveFaceB };

typedef struct fcContactCurve4 {
    int kind[FC_LANES];
    fcVec3 coreA[FC_LANES][2], coreB[FC_LANES][2];  // cores: a segment in the body's frame (a point: both ends)
    fcVec3 faceNormal[FC_LANES];                     // faceA, faceB: n in the face's body's frame
    fcVec3 pointA[FC_MAX_MANIFOLD_POINTS][FC_LANES], pointB[FC_MAX_MANIFOLD_POINTS][FC_LANES];  // C_a,i, C_b,i (body frames)
    fcReal offset[FC_MAX_MANIFOLD_POINTS][FC_LANES];
    fcReal reach[FC_MAX_MANIFOLD_POINTS][FC_LANES];       // from the round side's core point to the contact point, along n
    fcReal separation[FC_MAX_MANIFOLD_POINTS][FC_LANES];  // at the collide stage
} fcContactCurve4;

// the position pass's rows of a block: along the normals at the pass's lever arms
typedef struct fcContactPosition4 {
    fcContactRow4 row[FC_MAX_MANIFOLD_POINTS];
    fcReal separation[FC_MAX_MANIFOLD_POINTS][FC_LANES];  // at the start of the pass
} fcContactPosition4;

typedef struct fcContactBlock {
    int a[FC_LANES], b[FC_LANES];  // solver bodies (0: the world at rest, and the empty lanes)
    // the solver bodies the block writes back: a lane's dynamic ones, 0 (none) for the others, whose velocities the
    // blocks of a colour read side by side (the colouring keeps only dynamic bodies apart)
    int writeA[FC_LANES], writeB[FC_LANES];
    int bodyA[FC_LANES], bodyB[FC_LANES];  // the fcBodies (-1: an empty lane), whose poses the separation follows
    int points;                    // the most points of a lane
    int spin;                      // index into spins, -1: no lane resists rolling or spinning
    int curve;                     // index into curves, -1: no lane's normal follows round surfaces
    bool withNext;                 // the next block has the same colour (they share no dynamic body)
    bool still;                    // every lane's a is static: solver body 0, the world at rest (the ground's contacts)
    bool rowsPrepared;             // the rows' I^-1 (r x d) and masses are those of this step's r x d
    fcReal lanePoints[FC_LANES];   // each lane's points: past them a point's rows have zero mass
    fcContact* contact[FC_LANES];  // NULL: an empty lane
    fcContactManifold* manifold[FC_LANES];
    fcReal normal[3][FC_LANES], tangent[2][3][FC_LANES];
    fcReal invMassA[FC_LANES], invMassB[FC_LANES], friction[FC_LANES], restitution[FC_LANES];
    // release dating, per substep: a manifold's sum of lambda_n in its last loaded substep and that substep (-1: the
    // last step's), and when the load fell to zero after it (substeps from the step's start, -1: it has not)
    fcReal load[FC_LANES], loadSubstep[FC_LANES], letGo[FC_LANES];
    // the chord of a turn (above): the substep's tangential velocities the friction rows ask for (zero on the ground)
    fcReal frictionTarget[2][FC_LANES];
    int endEvents[FC_LANES];  // after the step, per lane: the fcContacts_EndStep events to report (FC_END_* bits)
    // Friction by manifold (a patch, docs/physics.md 4d): rows along t1 and t2 at the centre of the lane's points and
    // one about n (the twist), solved together by the inverse of their 3 x 3 J M^-1 J^T (its lower triangle by rows:
    // 00, 10, 11, 20, 21, 22; zero past a lane's rows), within the ellipsoid |lambda_t|^2 + (tau / r)^2 <= (mu
    // lambda_n)^2 of the lane's summed lambda_n, r the points' mean distance from their centre (invArm: 1 / r, 0
    // for one point, which takes no twist)
    fcContactRow4 patch[3];
    fcReal patchInverse[6][FC_LANES];
    fcReal patchMetric[3][FC_LANES];  // 1 / the diagonal of J M^-1 J^T in (lambda_t, tau / r) (1 where it is zero)
    fcReal arm[FC_LANES], invArm[FC_LANES];
    fcReal patchImpulse[3][FC_LANES], patchTotal[3][FC_LANES];  // its impulses: of the substep, over the step
    // the sum of its substeps' impulses' sizes (the cone's ellipsoid, the pyramid's box, as the bound measures them):
    // at mu sum lambda_n where every substep's was at its bound, whichever way (their sum may lie inside it)
    fcReal patchReach[FC_LANES];
    fcContactPoint4 point[FC_MAX_MANIFOLD_POINTS];
} fcContactBlock;

// what a manifold's place in the blocks depends on (contact_solve.c, fcContacts_LayoutKeys)
enum {
    fc_layoutBelowA = 1, fc_layoutBelowB = 2,  // the contact is below the body's centre: the body rests on it
    fc_layoutTypeA = 2, fc_layoutTypeB = 4,    // shifts of the bodies' fcBodyType (2 bits each)
    fc_layoutCurve = 6,                        // shift of the fcContactCurve4 kind (2 bits)
    fc_layoutSpin = 256                        // rolling or spinning resistance
};

typedef struct fcContactLayoutKey {
    const struct fcContact* contact;
    const fcContactManifold* manifold;
    int bodyA, bodyB;
    unsigned flags;
} fcContactLayoutKey;

// The blocks of one group, colour by colour. A large problem is cut in two halves at the median of its moving
// bodies along their widest axis: group 0 holds the manifolds within the lower half, group 1 those within the upper
// one, group 2 those across the cut. Groups 0 and 1 share no dynamic body, so two workers sweep one each, every
// colour of it, with no wait between colours and each half's bodies in its worker's cache; group 2 follows (it
// leads on backward sweeps). One thread sweeps the same blocks in the same order: the same bits.
#define FC_CONTACT_HALVES_FROM 512  // manifolds: a problem this large is cut in halves (whatever the workers)
typedef struct fcContactGroup {
    int first, end;  // blocks
    int colorCount;  // colour c's blocks are [colorBlocks[c], colorBlocks[c + 1]); past colorBlocks[colorCount] (past
    int colorBlocks[FC_CONTACT_COLORS + 1];  // the colours) to end, blocks that may share bodies, in order
} fcContactGroup;

typedef struct fcContactKey {
    uint64_t key;  // the height's bits, ordered as the heights (contact.c)
    int index;     // the pair's slot
    int rank;      // its place in the touching list in slot order (ties go by it)
} fcContactKey;

typedef struct fcContactSet {
    // the pairs, in pages of FC_PAIR_PAGE pair slots (fcContacts_Pair): a page is added as the pairs outgrow them,
    // and none moves, so that growing costs no copy of the pairs (doubling one array of them, 3 KB each then,
    // copied 12 MB in one of S7's steps, 4 to 10 ms) and a pair's address (and its `first` manifold's) holds for its life
    fcContact** pages;
    int pageCount, pageCapacity;
    // the blocks of FC_MAX_PAIR_MANIFOLDS manifolds that destroyed mesh pairs left, for the next ones
    fcContactManifold** meshBlocks;
    int meshBlockCount, meshBlockCapacity;
    int capacity, high, freeCount;  // capacity: of the per-slot arrays (freeList, hashNext, pairKeys)
    int* freeList;
    int* hashHeads;           // (hashSize) first contact of each bucket
    int hashSize;
    // (capacity) per pair slot, its chain link in the pair hash and its shapes (shapeA << 32 | shapeB): the broadphase's
    // look-ups walk these, not the pairs (900 bytes apart, and out of the caches when the broadphase runs)
    int* hashNext;
    uint64_t* pairKeys;
    int* pairBodies;              // (2 x capacity) slot k's bodies at 2k, 2k + 1, -1 for a free slot or a sensor: the
                                  // wake search and the narrowphase read these instead of the pairs' records
    uint8_t* pairFlags;           // (capacity) FC_PAIR_* of slot k's pair (not a sensor's) at the last narrowphase, 0 when
                                  // made: the islands and the narrowphase read these instead of the pairs' records
    int* touching;            // contacts with points this step, for the API (rebuilt each step)
    int touchingCount, touchingCapacity;
    fcContactKey* sortKeys;   // (2 sortKeyCapacity) the touching contacts by height, for the solver's order, and the
                              // radix sort's second buffer
    int sortKeyCapacity;
    int* sortLast;            // (2 sortKeyCapacity) the last sort's touching list in slot order, and its order by height
                              // (ranks in that list): the next sort starts from it when the pairs are the same
    int sortLastCount;        // -1: none
    fcReal* shapeSpinReach;   // (shapeHigh) per shape, this step: |w| of its body times half its box's diagonal
    uint8_t* shapeRefit;      // (shapeHigh) per shape, this step: what its proxy needs (contact.c, fcContacts_RefitChunk)
    int shapeSpinReachCapacity;
    int enabledCount;         // touching contacts in this step's problem (not asleep, not disabled)
    int substep;              // the substep being solved (fcContacts_Finish counts them)
    int* manifoldRefs;        // the API's i-th manifold: contact * FC_MAX_PAIR_MANIFOLDS + manifold (rebuilt each step)
    int manifoldRefCapacity;
    // (slotCapacity) per pair slot, what the narrowphase left for the collide stage's sequential passes
    // (FC_SLOT_* bits; contact.c) and the height key of its first point, so that they do not read the pairs again
    uint16_t* slotState;
    uint64_t* slotHeightKey;
    fcContactKept* slotKept;      // fcContacts_Keep's poses
    int slotCapacity;
    // the velocity solve's compact arrays: laid out once per step (fcContacts_Layout, after the collide stage),
    // their numbers refreshed every substep (fcContacts_Prepare)
    bool layoutDirty;
    fcSolverBody* solverBodies;   // (solverBodyCount) 0: the world at rest
    int* solverBodyIndex;         // the fcBody of each solver body (-1 for 0)
    fcReal* solverInvMass;
    fcMat33* solverInvInertia;    // (2 solverBodyCapacity) the last prepare's; past solverBodyCapacity the position pass's
    uint8_t* solverInertiaKept;   // 1: the same world inverse inertia as in the last prepare (fcContacts_Prepare)
    bool positionsCorrected;      // the last position pass had overlaps or bounces to correct
    bool bouncesToPlace;          // this substep's prepare found a bounce that began before the surfaces met
    int solverBodyCount, solverBodyCapacity;
    int* solverBodyOf;            // (solverMapCapacity) fcBody index -> solver body, -1 none
    int solverMapCapacity;
    fcContactBlock* blocks;
    fcContactPosition4* positions;  // (blockCapacity)
    int blockCount, blockCapacity;
    fcContactSpin4* spins;
    int spinCount, spinCapacity;
    fcContactCurve4* curves;
    int curveCount, curveCapacity;
    int groupCount;               // 1, or 3 with the halves (FC_CONTACT_HALVES_FROM manifolds on)
    fcContactGroup groups[3];     // in block order: group g's blocks are [groups[g].first, groups[g].end)
    bool colorsSplit;             // some colour splits into chunks for the workers (contact_solve.c)
    fcReal* chunkSlots;           // the maxima of a parallel loop's chunks (contact_solve.c)
    fcReal heaviestPoint;         // the largest sum of a point's total normal impulse and its manifold's total friction impulses' sizes over the step (fcContacts_Finish)
    int chunkSlotCapacity;
    int* colorScratch;            // the layout's scratch: colours and groups of the manifolds; floors, halves and a list of the bodies
    int colorScratchCapacity;
    uint64_t* colorUsed;          // per fcBody, the colours of its manifolds
    int colorUsedCapacity;
    const fcContactLayoutKey** colorOrder;  // the manifolds by colour
    int colorOrderCapacity;
    // the last layout's keys, in the solver's order: a step whose keys are the same keeps its layout
    fcContactLayoutKey* layoutKeys;
    int layoutKeyCount, layoutKeyCapacity, layoutBodyHigh;
    int layoutPoints;             // the points of this step's manifolds in the blocks
    bool layoutValid;
    // contact_exact.c, per step: the islands whose normal rows are solved exactly (heavy on light), island k's rows
    // exactRows[exactIslands[k] .. exactIslands[k + 1]) and its joints' blocks (world->rows)
    // exactJointBlocks[exactJointIslands[k] .. exactJointIslands[k + 1])
    struct fcExactRow* exactRows;
    int exactRowCapacity;
    int* exactIslands;
    int* exactJointIslands;
    int exactIslandCount, exactIslandCapacity;
    int* exactJointBlocks;
    int exactJointBlockCapacity;
    int* exactScratch;
    int exactScratchCapacity;
    fcReal* exactMatrices;        // the island's A, its factor L, its joints' A_j and Z (FC_EXACT_MOST_ROWS^2 each)
    int* exactJointRowOf;         // (exactJointRowCapacity) a joint row's place in the island being solved, -1 none
    int exactJointRowCapacity;
    int* sleepersToWake;          // the collide stage's: sleeping bodies an awake one is about to touch
    int sleepersToWakeCapacity;
    uint8_t* bodyMarks;           // (bodyMarksCapacity) per body, while some body sleeps: FC_MARK_* bits (contact.c)
    int bodyMarksCapacity;
    uint8_t* bodyPairs;           // (bodyPairsCapacity) per body, this step: in how many pairs it is, 2 for two or more
    int bodyPairsCapacity;
    int* seamScratch;             // (seamScratchCapacity) fcContacts_DropSeams' list of (body, pair slot, next)
    int seamScratchCapacity;
    int* seamHead;                // (seamHeadCapacity) per body, its last entry in that list
    int seamHeadCapacity;
    bool keepStillPairs;          // this step's narrowphase keeps the asleep pairs of still bodies (fcContacts_NarrowChunk)
    bool bodiesMarked;            // bodyMarks are this step's (some body sleeps)
    fcVec3 keptGravity;           // the gravity of the last narrowphase (the height keys it kept are along it)
} fcContactSet;

// fcContactSet.pairFlags
enum {
    FC_PAIR_ASLEEP = 1,    // both bodies asleep (or not dynamic): nothing was collided
    FC_PAIR_TOUCHING = 2,  // some point within the slop: the pair joins its bodies' islands
};

#define FC_PAIR_PAGE_BITS 6  // 64 pair slots a page (about 58 KB)
#define FC_PAIR_PAGE (1 << FC_PAIR_PAGE_BITS)

// pair slot `index` (< high)
static inline fcContact* fcContacts_Pair(const fcContactSet* set, int index)
{
    return set->pages[index >> FC_PAIR_PAGE_BITS] + (index & (FC_PAIR_PAGE - 1));
}

// how many manifolds the pair has room for
static inline int fcContacts_ManifoldRoom(const fcContact* c) { return c->manifolds == &c->first ? 1 : FC_MAX_PAIR_MANIFOLDS; }

struct fcWorld;
void fcContacts_Free(fcContactSet* set);
// whether two shapes may touch at all (bodies, types, filters, joints)
bool fcContacts_ShouldCollide(const struct fcWorld* world, int shapeA, int shapeB);
// shapes
void fcContacts_AddShape(struct fcWorld* world, int shape);
void fcContacts_RemoveShape(struct fcWorld* world, int shape);
// the collide stage: refresh proxies, new pairs, narrowphase on every pair, events
void fcContacts_Collide(struct fcWorld* world);
// a shape's filter changed: a proxy left behind while nothing could see the shape catches up with its body
void fcContacts_ShapeFilterChanged(struct fcWorld* world, int shape);
void fcContacts_BodyPutElsewhere(struct fcWorld* world, int body);
// whether a pair reports its contacts' begin and end (a sensor reports its own always)
bool fcContacts_WantsEvents(const struct fcWorld* world, const fcContact* c);
void fcContacts_BodyCentreMoved(struct fcWorld* world, int body, fcVec3 shift);
// the kept impulses of every pair, for a step `ratio` times as long as the last (fcWorld_SetTimestep)
void fcContacts_RescaleImpulses(struct fcWorld* world, fcReal ratio);
// where a manifold's friction acts (its patch, docs/physics.md 4d): the points' weights (the touching ones alike),
// its deepest point, the centre as arms from the two bodies' centres; returns the twist's arm r
fcReal fcContacts_PatchCentre(const fcContactManifold* m, fcReal slop, fcReal* weight, int* deepestPoint, fcVec3* centreA, fcVec3* centreB);
// contact_solve.c: per substep
bool fcContacts_HasRows(const struct fcWorld* world);
// the step's totals start from zero (again when the step is retaken in substeps)
void fcContacts_BeginStep(struct fcWorld* world);
void fcContacts_Prepare(struct fcWorld* world);
void fcContacts_WarmStart(struct fcWorld* world);
// copy the solver bodies' velocities to the bodies (before a joint solve or at the end), or back
void fcContacts_StoreVelocities(struct fcWorld* world);
void fcContacts_LoadVelocities(struct fcWorld* world);
// sweep number `sweep` over the contact rows (odd sweeps run backwards); returns the largest impulse change, and
// in *settled whether every manifold's normal impulses moved by at most FC_CONTACT_SETTLED of its load
fcReal fcContacts_Sweep(struct fcWorld* world, int sweep, bool* settled);
void fcContacts_Finish(struct fcWorld* world);
// after the step: release and stick/slip events
void fcContacts_EndStep(struct fcWorld* world);
// the position pass: after the step's last substep, and after one whose bounces it must place (`last` false: only
// then)
void fcContacts_SolvePositions(struct fcWorld* world, bool last);
// contact_exact.c: once a step after the layout, the islands to solve exactly; before a substep's first sweep,
// their solve
void fcContacts_FindExactIslands(struct fcWorld* world);
// returns whether it solved an island with joints (the joint solve must then take up the impulses before a sweep)
bool fcContacts_SolveExact(struct fcWorld* world);
// continuous.c: after the step's positions, a fast-turning body that went into or through a static shape is put back
// where it first came within reach of it
void fcContinuous_Step(struct fcWorld* world);

#endif
