// SPDX-License-Identifier: MIT
// The viewer's GL-free half (demos/view/model.c, canvas.c) and `fulcrum run --events`' JSON: the CPU
// rasterizer's coverage and blending, picking by the drawn bounding spheres, the drag spring's force reaching
// the joint reaction in the same step, release events into the frame record, the plot's markers and the log,
// and drawn as a marker at its time (the plot rasterized on the CPU, as `fulcrum run --plot` does), plot
// channels coming and going; contacts in the frame record (a box on the ground and a box on it: each point's
// normal force, the bodies' totals and moments, the body the force is described on), a body's contact channel
// against its exact curve, the skier of case 4 on a real dome (its release event, angle, log line and marker),
// and the hull and triangle meshes drawn for hull and mesh shapes.
#include "canvas.h"
#include "model.h"
#include "plot.h"
#include "run.h"
#include "test_macros.h"

#include <stb/stb_image.h>

#define PI 3.14159265358979323846

static const char* const fc_hangingPendulum =
    "{\"name\": \"hanging\", \"timestep\": 0.004166666666666667,"
    " \"bodies\": [{\"name\": \"bob\", \"position\": [0, 0, -1], \"mass\": 1, \"inertia\": [4e-5, 4e-5, 4e-5],"
    "              \"shapes\": [{\"type\": \"sphere\", \"radius\": 0.01}]}],"
    " \"joints\": [{\"name\": \"pivot\", \"type\": \"ball\", \"body_b\": \"bob\", \"anchor\": [0, 0, 0]}]}";

static unsigned char* fcPixel(unsigned char* rgba, int width, int x, int y) { return rgba + 4 * (y * width + x); }

// An opaque rectangle on pixel edges covers exactly its pixels; one on half pixels covers its border pixels
// half; a half-transparent rectangle blends once everywhere, its diagonal (where its two triangles meet) too.
static int test_canvas_raster(void)
{
    enum { W = 20, H = 12 };
    unsigned char rgba[W * H * 4];
    memset(rgba, 0, sizeof rgba);
    fcCanvas c;
    memset(&c, 0, sizeof c);
    const float red[4] = {1, 0, 0, 1};
    fcCanvas_Rect(&c, 2, 2, 6, 5, red);
    fcCanvas_Rect(&c, 9.5f, 2, 12.5f, 4, red);
    fcCanvas_Rasterize(&c, rgba, W, H);
    ENSURE(fcPixel(rgba, W, 2, 2)[0] == 255 && fcPixel(rgba, W, 5, 4)[0] == 255);
    ENSURE(fcPixel(rgba, W, 1, 2)[0] == 0 && fcPixel(rgba, W, 6, 2)[0] == 0 && fcPixel(rgba, W, 2, 5)[0] == 0);
    ENSURE(fcPixel(rgba, W, 3, 3)[1] == 0 && fcPixel(rgba, W, 3, 3)[3] == 255);
    ENSURE_NEAR(fcPixel(rgba, W, 9, 3)[0], 128, 1);   // half the pixel: 2 of its 4 samples
    ENSURE_NEAR(fcPixel(rgba, W, 12, 3)[0], 128, 1);
    ENSURE(fcPixel(rgba, W, 10, 3)[0] == 255 && fcPixel(rgba, W, 13, 3)[0] == 0);

    memset(rgba, 255, sizeof rgba);
    c.count = 0;
    const float halfBlue[4] = {0, 0, 1, 0.5f};
    fcCanvas_Rect(&c, 0, 0, 8, 8, halfBlue);
    fcCanvas_Rasterize(&c, rgba, W, H);
    for (int i = 0; i < 8; ++i) {  // the diagonal and the pixels beside it: blended once, 255 / 2
        ENSURE_NEAR(fcPixel(rgba, W, i, i)[0], 128, 1);
        ENSURE_NEAR(fcPixel(rgba, W, i, i)[2], 255, 0);
        ENSURE_NEAR(fcPixel(rgba, W, (i + 3) % 8, i)[0], 128, 1);
    }
    ENSURE(fcPixel(rgba, W, 9, 9)[0] == 255 && fcPixel(rgba, W, 9, 9)[1] == 255);
    fcCanvas_Free(&c);
    return 0;
}

// Two overlapping bodies: the ray picks the one whose centre it passes nearest; a point-like bob drawn at
// 5 cm is grabbed at its centre of mass, never off it.
static int test_pick_spheres(void)
{
    const char* json =
        "{\"bodies\": ["
        " {\"name\": \"a\", \"position\": [0, 0, 0], \"mass\": 1, \"shapes\": [{\"type\": \"sphere\", \"radius\": 0.2}]},"
        " {\"name\": \"b\", \"position\": [0.3, 0, 0], \"mass\": 1, \"shapes\": [{\"type\": \"sphere\", \"radius\": 0.2}]},"
        " {\"name\": \"bob\", \"position\": [2, 0, 0], \"mass\": 1, \"inertia\": [4e-5, 4e-5, 4e-5],"
        "  \"shapes\": [{\"type\": \"sphere\", \"radius\": 0.01}]},"
        " {\"name\": \"stick\", \"position\": [4, 0, 0], \"mass\": 1,"
        "  \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.05, 0.05], \"position\": [0.5, 0, 0]}]}]}";
    fcScene s;
    char err[512];
    ENSURE(fcScene_LoadString(json, "pick.json", &s, err, sizeof err));
    fcViewFrame f;
    fcViewFrame_Init(&f, &s);
    fcViewFrame_Capture(&f, &s, 0);
    double bounds[4][5];
    fcViewBounds_Compute(&s, 0.05, bounds);
    ENSURE_NEAR(bounds[0][3], 0.2, 1e-12);
    ENSURE_NEAR(bounds[2][3], 0.05, 1e-12);  // drawn larger than its shape
    ENSURE_NEAR(bounds[2][4], 0.01, 1e-12);
    ENSURE_NEAR(bounds[3][0], 0.5, 1e-12);   // the box's centre, off the body's origin
    ENSURE_NEAR(bounds[3][3], sqrt(0.25 + 0.0025 + 0.0025), 1e-12);
    double down[3] = {0, 0, -1};
    double o1[3] = {0.12, 0, 5}, o2[3] = {0.18, 0, 5}, o3[3] = {2.03, 0, 5}, o4[3] = {4.9, 0, 5}, o5[3] = {1, 0, 5};
    fcPickHit h = fcPick_BoundingSpheres(&f, (const double(*)[5])bounds, o1, down, 100);
    ENSURE(h.hit && h.body == 0);
    ENSURE_NEAR(h.point[0], 0.12, 1e-12);
    ENSURE_NEAR(h.point[2], 0, 1e-12);  // where the ray passes the centre nearest
    ENSURE_NEAR(h.distance, 5, 1e-12);
    h = fcPick_BoundingSpheres(&f, (const double(*)[5])bounds, o2, down, 100);
    ENSURE(h.hit && h.body == 1);
    h = fcPick_BoundingSpheres(&f, (const double(*)[5])bounds, o3, down, 100);
    ENSURE(h.hit && h.body == 2);
    ENSURE(h.point[0] == 2 && h.point[1] == 0 && h.point[2] == 0);  // snapped to the centre of mass
    h = fcPick_BoundingSpheres(&f, (const double(*)[5])bounds, o4, down, 100);
    ENSURE(h.hit && h.body == 3);
    ENSURE_NEAR(h.point[0], 4.9, 1e-12);  // inside the stick's reach: grabbed where the ray passes
    h = fcPick_BoundingSpheres(&f, (const double(*)[5])bounds, o5, down, 100);
    ENSURE(!h.hit);
    h = fcPick_BoundingSpheres(&f, (const double(*)[5])bounds, o1, down, 4);  // beyond maxDistance
    ENSURE(!h.hit);
    h = fcPick_Body(&s, &f, (const double(*)[5])bounds, o2, down, 100);  // the engine's ray cast or the spheres
    ENSURE(h.hit && h.body == 1);
    fcViewFrame_Free(&f);
    fcScene_Free(&s);
    return 0;
}

// A bob hanging at rest: pulled straight down by the drag spring, the pivot's tension is m g + F in that
// very step (the constraint cancels the whole pull); pulled sideways, the bob follows.
static int test_drag_tension(void)
{
    fcScene s;
    char err[512];
    ENSURE(fcScene_LoadString(fc_hangingPendulum, "hanging.json", &s, err, sizeof err));
    ENSURE(fcWorld_Step(s.world));
    double g = 9.81, T0 = fcVec3_Length(fcJoint_GetReaction(s.joints[0]).force);
    ENSURE_NEAR(T0, g, 1e-9);
    fcDrag drag;
    double grab[3] = {0, 0, -1};
    ENSURE(fcDrag_Begin(&drag, &s, 0, grab));
    double w = 2 * PI * 2;
    ENSURE_NEAR(drag.stiffness, w * w, 1e-9);  // m w^2 with m = 1
    ENSURE_NEAR(drag.damping, 2 * w, 1e-9);
    drag.target[2] = -1.1;
    fcDrag_Apply(&drag, &s);
    double F = drag.stiffness * 0.1;
    ENSURE_NEAR(drag.force[2], -F, 1e-9);
    ENSURE_NEAR(drag.force[0], 0, 1e-12);
    ENSURE(fcWorld_Step(s.world));
    fcJointReaction r = fcJoint_GetReaction(s.joints[0]);
    printf("  drag: F = %.6f N down, pivot tension %.9f N (m g + F = %.9f N)\n", F, r.force.z, g + F);
    ENSURE_NEAR(r.force.z, g + F, 1e-6 * (g + F));
    ENSURE_NEAR(fcBody_GetPosition(s.bodies[0]).z, -1, 1e-9);  // the rod holds

    // sideways: 1 s of the spring towards x = 0.5 swings the bob out, and the tension grows with the pull
    drag.target[0] = 0.5, drag.target[2] = -1;
    double maxT = 0;
    for (int n = 0; n < 240; ++n) {
        fcDrag_Apply(&drag, &s);
        ENSURE(fcWorld_Step(s.world));
        maxT = fmax(maxT, fcVec3_Length(fcJoint_GetReaction(s.joints[0]).force));
    }
    fcVec3 p = fcBody_GetPosition(s.bodies[0]);
    printf("  drag sideways: bob at (%.4f, %.4f, %.4f), largest tension %.3f N\n", p.x, p.y, p.z, maxT);
    ENSURE(p.x > 0.3);
    ENSURE_NEAR(fcVec3_Length(p), 1, 1e-9);
    ENSURE(maxT > g + 5);
    fcDrag_End(&drag);
    ENSURE(!drag.active);
    double q[3];
    ENSURE(!fcDrag_Begin(&drag, &s, 5, q));  // no such body
    fcScene_Free(&s);
    return 0;
}

// The skier on a dome of radius R (a one-sided user row |x| - R >= 0): it takes hold at the start and lets go
// at cos(theta) = 2/3. The frame record, the plot's markers, the log line and the JSON line all carry it.
#define R_DOME 2.0
static void fcDomeRow(const fcUserConstraintState* st, fcUserConstraintRow* rows, void* context)
{
    (void)context;
    fcVec3 d = st->position[1];
    fcReal len = fcVec3_Length(d);
    fcVec3 u = fcVec3_Scale(1 / len, d);
    rows[0].jacobian[1][0] = u.x, rows[0].jacobian[1][1] = u.y, rows[0].jacobian[1][2] = u.z;
    rows[0].error = len - R_DOME;
}

static int test_events(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.timestep = 1.0 / 240;
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0, R_DOME);
    bd.linearVelocity = fcV3(0.05, 0, 0);
    bd.mass = 70;
    bd.inertia = fcV3(1, 1, 1);
    fcBodyId skier = fcCreateBody(w, &bd);
    fcUserConstraintDef ud = fcDefaultUserConstraintDef();
    ud.bodyB = skier;
    ud.rowCount = 1;
    ud.holonomic = true;
    ud.unilateral = true;
    ud.fcn = fcDomeRow;
    ud.name = "dome";
    fcJointId dome = fcCreateUserConstraint(w, &ud);
    ENSURE(fcJoint_IsValid(dome));
    // a scene around the hand-made world, as the loader would make it
    fcBodyId bodies[1] = {skier};
    char* bodyNames[1] = {"skier"};
    fcJointId joints[1] = {dome};
    char* jointNames[1] = {"dome"};
    fcJointType types[1] = {fc_userConstraint};
    fcScene s;
    memset(&s, 0, sizeof s);
    s.world = w, s.name = "skier", s.description = "", s.timestep = wd.timestep, s.duration = 3;
    s.bodyCount = 1, s.bodies = bodies, s.bodyNames = bodyNames;
    s.jointCount = 1, s.joints = joints, s.jointNames = jointNames, s.jointTypes = types;

    static fcPlot plot;
    fcPlot_Init(&plot, &s);
    fcViewLog log;
    fcViewLog_Clear(&log);
    fcViewFrame prev, curr;
    fcViewFrame_Init(&prev, &s);
    fcViewFrame_Init(&curr, &s);
    fcViewFrame_Capture(&curr, &s, 0);
    ENSURE(curr.eventCount == 0);
    ENSURE(!curr.joints[0].point);  // a user row: drawn at its body
    fcViewEvent release;
    memset(&release, 0, sizeof release);
    int releases = 0, holds = 0;
    char json[512] = "";
    for (int n = 0; n < 240 * 3; ++n) {
        ENSURE(fcWorld_Step(w));
        fcViewFrame_Copy(&prev, &curr);
        fcViewFrame_Capture(&curr, &s, 0);
        fcPlot_Add(&plot, &s, &prev, &curr);
        ENSURE(curr.eventCount == fcWorld_GetEventCount(w));
        for (int k = 0; k < curr.eventCount; ++k) {
            const fcViewEvent* e = curr.events + k;
            char line[128];
            fcViewEvent_Describe(e, line, sizeof line);
            fcViewLog_Add(&log, "%s", line);
            if (e->type == fc_eventHold) ++holds;
            if (e->type != fc_eventRelease) continue;
            ++releases;
            release = *e;
            fcConstraintEvent ce = fcWorld_GetEvent(w, k);
            FILE* f = tmpfile();
            ENSURE(f != NULL);
            fcRun_WriteEventJson(f, &s, &ce);
            rewind(f);
            ENSURE(fgets(json, sizeof json, f) != NULL);
            fclose(f);
            ENSURE(release.time == ce.time && release.forceBefore == ce.forceBefore);
        }
    }
    double cosTheta = release.positionB[2] / sqrt(release.positionB[0] * release.positionB[0] + release.positionB[2] * release.positionB[2]);
    double angle = acos(cosTheta) * 180 / PI, exact = acos(2.0 / 3.0) * 180 / PI;
    printf("  skier: %d hold, %d release at t = %.4f s, %.3f deg (exact %.3f), speed %.4f m/s\n  log: %s\n  json: %s", holds,
           releases, release.time, angle, exact, sqrt(release.velocityB[0] * release.velocityB[0] + release.velocityB[2] * release.velocityB[2]),
           fcViewLog_Line(&log, 0), json);
    ENSURE(releases == 1 && holds == 1);
    ENSURE(release.joint == 0 && !release.contact && strcmp(release.name, "dome") == 0);
    ENSURE_NEAR(angle, exact, 0.5);
    ENSURE(release.time > 1 && release.time < 3);

    // the plot: both events as markers at their times, newest last
    ENSURE(plot.eventCount == 2);
    const fcPlotEvent* marker = plot.events + (plot.eventHead + 1) % FC_PLOT_MAX_EVENTS;
    ENSURE(marker->type == fc_eventRelease && marker->t == release.time && marker->joint == 0);
    // the log: the newest line is the release
    const char* line = fcViewLog_Line(&log, 0);
    ENSURE(line != NULL && strstr(line, "dome released") != NULL);
    ENSURE(fcViewLog_Line(&log, 2) == NULL && fcViewLog_Line(&log, -1) == NULL);
    // the JSON line (demos/run.c's format): time first (a round trip), type, bodies, joint, vectors
    const char* head = "{\"t\":";
    ENSURE(strncmp(json, head, strlen(head)) == 0);
    ENSURE(strtod(json + strlen(head), NULL) == release.time);
    ENSURE(strstr(json, "\"type\":\"release\"") != NULL && strstr(json, "\"joint\":\"dome\"") != NULL);
    ENSURE(strstr(json, "\"body_b\":\"skier\"") != NULL && strstr(json, "\"force_before\":") != NULL);
    ENSURE(strstr(json, "\"position_b\":[") != NULL && strstr(json, "\"velocity_b\":[") != NULL);
    ENSURE(json[strlen(json) - 1] == '\n' && json[strlen(json) - 2] == '}');

    // the plot drawn: the release's marker (a dashed line in the marker colour) stands at its time, 3 s into
    // the 5 s window; the hold's at t = 0 is on the axis
    FILE* png = tmpfile();
    ENSURE(png != NULL);
    const int W = 960, H = 600;
    ENSURE(fcPlot_WritePng(&plot, &s, png, W, H));
    rewind(png);
    int iw = 0, ih = 0, in = 0;
    unsigned char* img = stbi_load_from_file(png, &iw, &ih, &in, 4);
    fclose(png);
    ENSURE(img != NULL && iw == W && ih == H);
    float area[4];
    fcPlot_Area(0, 0, (float)W, (float)H, area);
    const float* mc = fcPlot_EventColor(fc_eventRelease);
    double expectX = area[0] + release.time / plot.window * (area[2] - area[0]);
    int near = 0, far = 0;
    for (int y = (int)area[1]; y < (int)area[3]; ++y)
        for (int x = (int)area[0] + 4; x < (int)area[2]; ++x) {
            const unsigned char* c = img + 4 * ((size_t)y * W + x);
            // the marker colour, at full strength or blended over the dark panel: red and green well above blue
            bool marker = c[0] > 120 && c[1] > 100 && c[2] + 60 < c[1] && (mc[0] > mc[2] + 0.5f);
            if (!marker) continue;
            if (fabs(x - expectX) <= 3) ++near;
            else ++far;
        }
    stbi_image_free(img);
    printf("  plot: %d marker pixels within 3 px of x = %.1f (t = %.4f s), %d elsewhere\n", near, expectX, release.time, far);
    ENSURE(near >= 100);
    ENSURE(far <= 10);
    fcViewFrame_Free(&prev);
    fcViewFrame_Free(&curr);
    fcDestroyWorld(w);
    return 0;
}

// The log keeps its newest FC_LOG_CAPACITY lines.
static int test_log(void)
{
    fcViewLog log;
    fcViewLog_Clear(&log);
    ENSURE(fcViewLog_Line(&log, 0) == NULL);
    for (int i = 0; i < FC_LOG_CAPACITY + 5; ++i) fcViewLog_Add(&log, "line %d", i);
    ENSURE(log.count == FC_LOG_CAPACITY);
    ENSURE(strcmp(fcViewLog_Line(&log, 0), "line 36") == 0);
    ENSURE(strcmp(fcViewLog_Line(&log, FC_LOG_CAPACITY - 1), "line 5") == 0);
    return 0;
}

// Channels: a click removes a shown joint and adds it back with a free colour; the others keep theirs; a full
// plot refuses a seventh.
static int test_plot_channels(void)
{
    char json[4096];
    int n = snprintf(json, sizeof json, "{\"name\": \"chain7\", \"bodies\": [");
    for (int i = 0; i < 7; ++i)
        n += snprintf(json + n, sizeof json - (size_t)n, "%s{\"name\": \"b%d\", \"position\": [%d, 0, 0], \"mass\": 1, \"inertia\": [1, 1, 1]}",
                      i ? ", " : "", i, i + 1);
    n += snprintf(json + n, sizeof json - (size_t)n, "], \"joints\": [");
    for (int i = 0; i < 7; ++i) {
        char a[16];
        snprintf(a, sizeof a, i ? "b%d" : "world", i - 1);
        n += snprintf(json + n, sizeof json - (size_t)n,
                      "%s{\"name\": \"j%d\", \"type\": \"ball\", \"body_a\": \"%s\", \"body_b\": \"b%d\", \"anchor\": [%d, 0, 0]}",
                      i ? ", " : "", i, a, i, i);
    }
    snprintf(json + n, sizeof json - (size_t)n, "]}");
    fcScene s;
    char err[512];
    ENSURE(fcScene_LoadString(json, "chain7.json", &s, err, sizeof err));
    static fcPlot plot;
    fcPlot_Init(&plot, &s);
    ENSURE(plot.seriesCount == FC_PLOT_MAX_SERIES && plot.quantity == fc_plotForce);
    for (int k = 0; k < FC_PLOT_MAX_SERIES; ++k) ENSURE(plot.joint[k] == k && plot.color[k] == k);
    ENSURE(fcPlot_Toggle(&plot, &s, 6) == 0);  // full
    ENSURE(fcPlot_Toggle(&plot, &s, 2) == -1);
    ENSURE(plot.seriesCount == 5 && fcPlot_FindSeries(&plot, 2) == -1);
    ENSURE(plot.joint[2] == 3 && plot.color[2] == 3);  // j3 moved down a column, kept its colour
    ENSURE(fcPlot_Toggle(&plot, &s, 6) == 1);
    ENSURE(plot.joint[5] == 6 && plot.color[5] == 2);  // the free colour
    fcViewFrame f;
    fcViewFrame_Init(&f, &s);
    ENSURE(fcWorld_Step(s.world));
    fcViewFrame_Capture(&f, &s, 0);
    fcPlot_Add(&plot, &s, &f, &f);
    int last = fcPlot_Index(&plot, plot.count - 1);
    ENSURE(plot.force[last][5] == f.joints[6].magnitude && plot.moment[last][5] == f.joints[6].momentMagnitude);
    plot.quantity = fc_plotComponents;
    ENSURE(fcPlot_Value(&plot, last, 5, 2) == f.joints[6].force[2]);
    ENSURE(fcPlot_Toggle(&plot, &s, -1) == 0 && fcPlot_Toggle(&plot, &s, 7) == 0);
    fcViewFrame_Free(&f);
    fcScene_Free(&s);
    return 0;
}

// A box resting on the ground plane and a lighter box on it (scene "box_on_plane", so the box's contact
// channel has its exact curve m g): every contact point in the frame record, each force described on the body
// it pushes up, the bodies' totals (the vector sums: each box at rest carries its own weight, the ground all
// of it) and their moments about the centres (zero at rest), the contact channel in the plot and the CSV.
static int test_contact_record(void)
{
    const char* json =
        "{\"name\": \"box_on_plane\", \"timestep\": 0.016666666666666666, \"bodies\": ["
        " {\"name\": \"ground\", \"type\": \"static\", \"shapes\": [{\"type\": \"plane\"}]},"
        " {\"name\": \"box\", \"position\": [0, 0, 0.1], \"mass\": 10,"
        "  \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.3, 0.2, 0.1]}]},"
        " {\"name\": \"top\", \"position\": [0.05, 0, 0.25], \"mass\": 2,"
        "  \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.1, 0.1, 0.05]}]}]}";
    fcScene s;
    char err[512];
    ENSURE(fcScene_LoadString(json, "box_on_plane.json", &s, err, sizeof err));
    const double g = 9.81, m = 10, mTop = 2;
    fcViewFrame prev, f;
    fcViewFrame_Init(&prev, &s);
    fcViewFrame_Init(&f, &s);
    fcViewFrame_Capture(&f, &s, 0);
    ENSURE(f.contactCount == 0 && f.manifoldCount == 0);
    static fcPlot plot;
    fcPlot_Init(&plot, &s);
    ENSURE(plot.seriesCount == 1 && plot.joint[0] == -1 && plot.body[0] == 1 && plot.exact[0] != NULL);
    for (int n = 0; n < 60; ++n) {
        ENSURE(fcWorld_Step(s.world));
        fcViewFrame_Copy(&prev, &f);
        fcViewFrame_Capture(&f, &s, 0);
        fcPlot_Add(&plot, &s, &prev, &f);
    }
    printf("  contacts: %d points on %d pairs\n", f.contactCount, f.manifoldCount);
    ENSURE(f.manifoldCount == 2 && f.contactCount == 8);
    double onBox = 0, onTop = 0;
    for (int i = 0; i < f.contactCount; ++i) {
        const fcViewContact* c = f.contacts + i;
        printf("    on %-4s from %-6s at (%7.4f, %7.4f, %7.4f): %8.4f N along (%.3f, %.3f, %.3f)\n", s.bodyNames[c->body],
               s.bodyNames[c->other], c->point[0], c->point[1], c->point[2], c->force, c->normal[0], c->normal[1], c->normal[2]);
        ENSURE_NEAR(c->normal[2], 1, 1e-9);  // up: on the supported body, whichever order the engine has
        ENSURE(c->force > 0);
        if (c->other == 0) {
            ENSURE(c->body == 1);
            ENSURE_NEAR(c->point[2], 0, 0.005);
            ENSURE_NEAR(fabs(c->point[0]), 0.3, 0.005);
            ENSURE_NEAR(fabs(c->point[1]), 0.2, 0.005);
            onBox += c->force;
        } else {
            ENSURE(c->body == 2 && c->other == 1);
            ENSURE_NEAR(c->point[2], 0.2, 0.005);
            onTop += c->force;
        }
    }
    // the ground's four points carry both boxes, the top box's its own weight, to 0.1 %
    ENSURE_NEAR(onBox, (m + mTop) * g, 1e-3 * (m + mTop) * g);
    ENSURE_NEAR(onTop, mTop * g, 1e-3 * mTop * g);
    const fcViewBodyContact *box = f.bodyContacts + 1, *top = f.bodyContacts + 2, *ground = f.bodyContacts + 0;
    printf("  totals: box (%.4f, %.4f, %.4f) N, top %.4f N, ground %.4f N; moments %.2e, %.2e N m\n", box->force[0],
           box->force[1], box->force[2], top->magnitude, ground->force[2], box->torqueMagnitude, top->torqueMagnitude);
    ENSURE(box->points == 8 && top->points == 4 && ground->points == 4);
    ENSURE_NEAR(box->force[2], m * g, 1e-3 * m * g);  // (m + mTop) g up from the ground, mTop g down from the top
    ENSURE_NEAR(top->force[2], mTop * g, 1e-3 * mTop * g);
    ENSURE_NEAR(ground->force[2], -(m + mTop) * g, 1e-3 * (m + mTop) * g);
    ENSURE_NEAR(box->magnitude, m * g, 1e-3 * m * g);
    // at rest the contacts' moment about each centre balances nothing: zero (the off-centre top box included)
    ENSURE_LE(box->torqueMagnitude, 1e-3 * m * g * 0.3);
    ENSURE_LE(top->torqueMagnitude, 1e-3 * mTop * g * 0.1);
    // a copy carries the contacts; the lerp takes the newer step's
    fcViewFrame_Lerp(&prev, &prev, &f, 0.5);
    ENSURE(prev.contactCount == 8 && prev.contacts[3].force == f.contacts[3].force);
    ENSURE(prev.bodyContacts[1].magnitude == f.bodyContacts[1].magnitude);

    // the plot: the box's contact channel at m g, on its exact curve
    int last = fcPlot_Index(&plot, plot.count - 1);
    ENSURE(plot.force[last][0] == box->magnitude && plot.moment[last][0] == box->torqueMagnitude);
    ENSURE_NEAR(plot.exactValue[last][0], m * g, 1e-12);
    plot.quantity = fc_plotComponents;
    ENSURE(fcPlot_Value(&plot, last, 0, 2) == box->force[2]);
    plot.quantity = fc_plotForce;
    char name[96];
    fcPlot_SeriesName(&plot, &s, 0, name, sizeof name);
    ENSURE(strcmp(name, "box contacts") == 0);
    // clicking the top box adds its channel (no exact curve), clicking the box takes its own off
    ENSURE(fcPlot_ToggleBody(&plot, &s, 2) == 1 && fcPlot_FindBodySeries(&plot, 2) == 1 && plot.exact[1] == NULL);
    ENSURE(fcPlot_ToggleBody(&plot, &s, 1) == -1 && plot.seriesCount == 1 && plot.body[0] == 2);
    ENSURE(fcPlot_ToggleBody(&plot, &s, 3) == 0 && fcPlot_FindSeries(&plot, 0) == -1);
    ENSURE(fcPlot_ToggleBody(&plot, &s, 1) == 1);
    fcPlot_Add(&plot, &s, &f, &f);
    FILE* csv = tmpfile();
    ENSURE(csv != NULL && fcPlot_WriteCsv(&plot, &s, csv));
    rewind(csv);
    char header[256];
    ENSURE(fgets(header, sizeof header, csv) != NULL);
    fclose(csv);
    ENSURE(strcmp(header, "t,top.contact,box.contact,box.contact.exact\n") == 0);
    fcViewFrame_Free(&prev);
    fcViewFrame_Free(&f);
    fcScene_Free(&s);
    return 0;
}

// The skier demo (demos/scenes/skier.json, case 4 as a real contact): its contact channel follows the exact
// m g (3 cos(theta) - 2), the contact's release comes as one event at 48.19 deg (within 0.5 deg: the engine's
// figure at h = 1/240 s is 48.29), with its log line, and is drawn as a release marker at its time.
static int test_skier_contact(void)
{
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/skier.json", fcRun_SceneDirectory());
    fcScene s;
    ENSURE(fcScene_Load(path, &s, err, sizeof err));
    int skier = fcScene_FindBody(&s, "skier"), dome = fcScene_FindBody(&s, "dome");
    ENSURE(skier >= 0 && dome >= 0);
    static fcPlot plot;
    fcPlot_Init(&plot, &s);
    ENSURE(plot.seriesCount == 1 && plot.body[0] == skier && plot.exact[0] != NULL);
    fcViewLog log;
    fcViewLog_Clear(&log);
    fcViewFrame prev, curr;
    fcViewFrame_Init(&prev, &s);
    fcViewFrame_Init(&curr, &s);
    fcViewFrame_Capture(&curr, &s, 0);
    const double m = 70, g = 9.81, h = s.timestep, exactAngle = acos(2.0 / 3.0) * 180 / PI;
    int releases = 0;
    double angle = 0, releaseTime = 0, worst = 0, worstAngle = 0;
    char releaseLine[128] = "";
    for (int n = 0; n < (int)(4.2 / h); ++n) {
        ENSURE(fcWorld_Step(s.world));
        fcViewFrame_Copy(&prev, &curr);
        fcViewFrame_Capture(&curr, &s, 0);
        fcPlot_Add(&plot, &s, &prev, &curr);
        for (int k = 0; k < curr.eventCount; ++k) {
            const fcViewEvent* e = curr.events + k;
            char line[128];
            fcViewEvent_Describe(e, line, sizeof line);
            fcViewLog_Add(&log, "%s", line);
            if (e->type != fc_eventRelease) continue;
            ++releases;
            ENSURE(e->contact && e->joint == -1 && strcmp(e->name, "dome - skier") == 0);
            ENSURE((e->bodyA == dome && e->bodyB == skier) || (e->bodyA == skier && e->bodyB == dome));
            // where the skier was at the event's time inside the step: its start state moved on by dt
            double dt = e->time - (curr.time - h), x[3];
            for (int d = 0; d < 3; ++d) x[d] = e->positionB[d] + dt * e->velocityB[d];
            angle = acos(x[2] / sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2])) * 180 / PI;
            releaseTime = e->time;
            snprintf(releaseLine, sizeof releaseLine, "%s", line);
        }
        // below 45 deg the channel is on the exact curve (the step's mean of it)
        int k = fcPlot_Index(&plot, plot.count - 1);
        const double* p = curr.bodies[skier].p;
        double theta = acos(p[2] / sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2])) * 180 / PI;
        if (theta < 45 && fabs(plot.force[k][0] - plot.exactValue[k][0]) > worst)
            worst = fabs(plot.force[k][0] - plot.exactValue[k][0]), worstAngle = theta;
    }
    printf("  skier: %d release at t = %.4f s, %.3f deg (exact %.3f); the plot within %.3g N (%.2e m g) of m g (3 cos - 2) "
           "below 45 deg (worst at %.1f deg)\n  log: %s\n", releases, releaseTime, angle, exactAngle, worst, worst / (m * g),
           worstAngle, releaseLine);
    ENSURE(releases == 1);
    ENSURE_NEAR(angle, exactAngle, 0.5);
    ENSURE_LE(worst, 0.01 * m * g);
    ENSURE(strstr(releaseLine, "contact dome - skier released") != NULL);
    // after the release the contact carries nothing, and so does the exact curve
    int last = fcPlot_Index(&plot, plot.count - 1);
    ENSURE_LE(plot.force[last][0], 1e-9);
    ENSURE(plot.exactValue[last][0] == 0);

    // the marker: a contact's release is drawn as a joint's is (a dashed line the plot's height and a triangle
    // at the top), at its time; the contact's begin and end are short ticks at the top only
    FILE* png = tmpfile();
    ENSURE(png != NULL);
    const int W = 960, H = 600;
    ENSURE(fcPlot_WritePng(&plot, &s, png, W, H));
    rewind(png);
    int iw = 0, ih = 0, in = 0;
    unsigned char* img = stbi_load_from_file(png, &iw, &ih, &in, 4);
    fclose(png);
    ENSURE(img != NULL && iw == W && ih == H);
    float area[4];
    fcPlot_Area(0, 0, (float)W, (float)H, area);
    double expectX = area[0] + releaseTime / plot.window * (area[2] - area[0]);
    int near = 0, far = 0, head = 0;
    for (int y = (int)area[1] - 6; y < (int)area[3]; ++y)
        for (int x = (int)area[0] + 6; x < (int)area[2]; ++x) {
            const unsigned char* c = img + 4 * ((size_t)y * W + x);
            bool marker = c[0] > 120 && c[1] > 100 && c[2] + 60 < c[1];  // the release colour (yellow)
            if (!marker) continue;
            if (y < (int)area[1] + 10) head += fabs(x - expectX) <= 6;
            else if (fabs(x - expectX) <= 3) ++near;
            else if (y > (int)area[1] + 16) ++far;
        }
    stbi_image_free(img);
    printf("  plot: %d marker pixels within 3 px of x = %.1f (t = %.4f s), %d in its triangle, %d elsewhere\n", near, expectX,
           releaseTime, head, far);
    ENSURE(near >= 100);
    ENSURE(head >= 15);
    ENSURE(far <= 10);
    fcViewFrame_Free(&prev);
    fcViewFrame_Free(&curr);
    fcScene_Free(&s);
    return 0;
}

// A hull shape is drawn from its points: the 8 corners of a box (and one point inside) give its 6 faces as 12
// triangles with outward normals and the box's area; a triangle mesh is drawn as given, bad triangles left out.
static int test_hull_mesh(void)
{
    fcVec3 pts[9];
    for (int i = 0; i < 8; ++i) pts[i] = fcV3(i & 1 ? 0.3 : -0.3, i & 2 ? 0.2 : -0.2, i & 4 ? 0.1 : -0.1);
    pts[8] = fcV3(0.05, 0, 0);
    fcMesh mesh;
    ENSURE(fcMesh_Hull(&mesh, pts, 9));
    double area = 0;
    int outward = 0;
    for (int t = 0; t < mesh.vertexCount / 3; ++t) {
        const float* v = mesh.data + 18 * t;
        double e1[3], e2[3], n[3], c[3];
        for (int k = 0; k < 3; ++k) e1[k] = v[6 + k] - v[k], e2[k] = v[12 + k] - v[k], c[k] = (v[k] + v[6 + k] + v[12 + k]) / 3;
        n[0] = e1[1] * e2[2] - e1[2] * e2[1], n[1] = e1[2] * e2[0] - e1[0] * e2[2], n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        area += 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        // wound counter-clockwise from outside, and the stored normal points away from the centre
        double wound = n[0] * v[3] + n[1] * v[4] + n[2] * v[5], out = c[0] * v[3] + c[1] * v[4] + c[2] * v[5];
        outward += wound > 0 && out > 0;
    }
    printf("  hull: %d triangles, area %.6f m^2 (box 0.6 x 0.4 x 0.2: 0.88), %d outward\n", mesh.vertexCount / 3, area, outward);
    ENSURE(mesh.vertexCount == 36);
    ENSURE_NEAR(area, 2 * (0.6 * 0.4 + 0.6 * 0.2 + 0.4 * 0.2), 1e-6);
    ENSURE(outward == 12);
    fcMesh_Free(&mesh);
    fcVec3 flat[4] = {fcV3(0, 0, 0), fcV3(1, 0, 0), fcV3(0, 1, 0), fcV3(1, 1, 0)};
    ENSURE(!fcMesh_Hull(&mesh, flat, 4) && mesh.vertexCount == 0);  // no volume
    fcMesh_Free(&mesh);
    int indices[12] = {0, 1, 2, 1, 3, 2, 0, 0, 1, 0, 1, 9};  // two good, one degenerate, one out of range
    fcMesh_Triangles(&mesh, flat, 4, indices, 4);
    ENSURE(mesh.vertexCount == 6);
    ENSURE(mesh.data[5] == 1 && mesh.data[6 * 3 + 5] == 1);  // up: counter-clockwise seen from +z
    fcMesh_Free(&mesh);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_canvas_raster);
    RUN_TEST(test_pick_spheres);
    RUN_TEST(test_drag_tension);
    RUN_TEST(test_events);
    RUN_TEST(test_log);
    RUN_TEST(test_plot_channels);
    RUN_TEST(test_contact_record);
    RUN_TEST(test_skier_contact);
    RUN_TEST(test_hull_mesh);
    TEST_MAIN_END();
}
