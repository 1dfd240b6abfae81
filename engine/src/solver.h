// SPDX-License-Identifier: MIT
// The stages of one step, in pipeline order; step.c is the only caller and the only file that knows the order.
//   rows       (constraint_rows.c)  layout on topology change; fill {J, rate, error}; W = M~^-1 J^T; A
//   integrate  (integrate.c)        v* = v + h M^-1 f (implicit gyroscopic term); then x += h v, q = exp(h w) q
//   solve      (solve.c)            factor A, solve A lambda = -(J v* + rate + bias), v += M~^-1 J^T lambda
//   stabilize  (stabilize.c)        geometric stiffness; Baumgarte bias, or post-step SHAKE projection onto f(q) = 0
//   diagnostics (diagnostics.c)     violation, energy, constraint power, joint coordinates
#ifndef FC_SOLVER_H
#define FC_SOLVER_H

#include "joint.h"

// items per chunk of the stages' parallel loops (tasks.h): a chunk must carry tens of microseconds of work, or
// handing it out costs more than it saves: what a worker wrote goes from the other core's cache to the next stage
// on the caller. With 256 bodies, 128 blocks and 512 rows a chunk, 2 threads took 20 to 25 % longer than 1 on
// the 1000-link chain (S6-1000) and S4; with these, worlds of about a thousand bodies run on the caller alone and
// the 10000-link chain gains 1.3 times on 2 threads (docs/benchmarks.md).
#define FC_ROW_GRAIN 4096
#define FC_BODY_GRAIN 1024
#define FC_BLOCK_GRAIN 1024

// constraint_rows.c
void fcRows_Layout(fcWorld* world);
// fill the rows at the current pose; errorsOnly keeps J (the projection's directions) and updates f only
bool fcRows_Fill(fcWorld* world, fcReal time, bool errorsOnly);
// M~^-1 of the bodies and W of the rows; displaced: the bodies moved since their world inertia was refreshed
void fcRows_ComputeW(fcWorld* world, bool displaced);
void fcRows_AssembleA(fcWorld* world, bool projection);
// the change of row i's J v when body (a world body index) takes the impulse (linear, angular)
fcReal fcRows_Response(const fcWorld* world, int i, int body, fcVec3 linear, fcVec3 angular);
// moves the projection bodies while rows.projectionActive (the projection), else the bodies
void fcRows_ApplyImpulses(fcWorld* world, const fcReal* lambda, fcReal scale, bool displace);
// the projection's working copy of the bodies (fcProjectionBody): gathered from the bodies when it starts, the
// world inertia gathered again after its refactors, its state scattered back to the moving bodies
typedef enum fcProjectionSync { fc_projectionGather, fc_projectionGatherInertia, fc_projectionScatter } fcProjectionSync;
void fcRows_SyncProjection(fcWorld* world, fcProjectionSync sync);
// J v of row i at the bodies' current velocities; of every row into jv (the point rows from their levers)
fcReal fcRows_Velocity(const fcWorld* world, int i);
void fcRows_Velocities(const fcWorld* world, fcReal* jv);
// fold the impulses applied since J last changed into the joints' and bodies' records (before J changes and
// at the end of the step: nothing reads the records in between). Returns the sum of the sizes of the joints'
// record entries (fcJoint_RecordSum): not finite when one of them is not (the step's last flush checks it)
fcReal fcRows_Flush(fcWorld* world);
// after the step's last flush (its sum, records; the step's h): false with the reason when a joint's reaction or a
// contact's force, impulse / h, is not finite (1e300 kg stopped by a joint or by the ground within a step of 1e-6 s:
// its state finite, its force m v / h not)
bool fcDiagnostics_ValidateReactions(const fcWorld* world, fcReal records, fcReal h);
// after a step that was not taken: its multipliers gone from every record but those of sleeping islands
void fcRows_ClearRecords(fcWorld* world);

// integrate.c
// over the (sub)step world->h
void fcIntegrate_Velocities(fcWorld* world);
// refreshInertia: the bodies' world inertia follows their new orientation now (else a later stage refreshes it)
void fcIntegrate_Positions(fcWorld* world, bool refreshInertia);

// stabilize.c: the velocity bias of each row for the world's stabilization mode (writes rows.rhs's bias part)
fcReal fcStabilize_Bias(const fcWorld* world, int row);
// the geometric stiffness K of body k from the last step's joint forces (impulses times invH, the inverse of the
// last step's length), at the levers of the step's first fill; part of the step's first pass over the bodies
#define FC_GEOMETRIC_THETA 0.25
void fcStabilize_GeometricStiffness(fcWorld* world, int k, fcReal invH);
// post-step projection; returns the iterations taken and sets stats.projection*
void fcStabilize_Project(fcWorld* world);

// solve.c
void fcSolve_Velocities(fcWorld* world);

// events.c: the step's events (one-sided constraints releasing and taking hold)
void fcEvents_Begin(fcWorld* world);
void fcEvents_Release(fcWorld* world, int joint, fcReal trialImpulse);
void fcEvents_ReleaseNow(fcWorld* world, int joint);
void fcEvents_Hold(fcWorld* world, int joint, fcReal gap, fcReal approachSpeed);
// a contact event at time (NaN: the start of the step); manifold NULL for sensors
void fcEvents_Contact(fcWorld* world, fcEventType type, const fcContact* contact, const fcContactManifold* manifold);
// an event of a pair taken away between steps, reported with the next step's events
void fcEvents_ContactBetweenSteps(fcWorld* world, fcEventType type, const fcContact* contact, const fcContactManifold* manifold);
void fcEvents_ContactAt(fcWorld* world, fcEventType type, const fcContact* contact, const fcContactManifold* manifold, fcReal time);
// contact.c: the API record of one manifold
void fcContacts_GetData(const fcWorld* world, const fcContact* c, int manifold, fcContactData* d);

// island.c: group the bodies, put resting islands to sleep and wake disturbed ones (after the step)
void fcIslands_Update(fcWorld* world);
// wake the islands of the sleeping bodies listed (before the step's solve: an awake body is about to touch them;
// between steps: the API disturbed them)
void fcIslands_Wake(fcWorld* world, const int* sleepers, int count);
void fcIslands_WakeAll(fcWorld* world);  // every sleeper (a new gravity)
// the islands of the bodies fcBody_Wake woke (before the step, and before the API reads who sleeps)
void fcIslands_WakePending(fcWorld* world);
// put the island of a dynamic body to sleep now (false: something keeps it awake)
bool fcIslands_Sleep(fcWorld* world, int body);

// diagnostics.c
void fcDiagnostics_EndStep(fcWorld* world, bool rowsAtEndPose);
bool fcDiagnostics_ValidateBodies(const fcWorld* world);
bool fcDiagnostics_ValidateState(const fcWorld* world);
// kinetic and gravitational energy of the dynamic bodies; the potential of the springs and soft joints
void fcDiagnostics_Energy(const fcWorld* world, fcReal* kinetic, fcReal* gravity);
fcReal fcDiagnostics_SpringEnergy(const fcWorld* world);

#endif
