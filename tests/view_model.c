// SPDX-License-Identifier: MIT
// The viewer's GL-free half (demos/view/model.c, canvas.c) and `fulcrum run --events`' JSON: the CPU
// rasterizer's coverage and blending, picking by the drawn bounding spheres, the drag spring's force reaching
// the joint reaction in the same step, release events into the frame record, the plot's markers and the log,
// and drawn as a marker at its time (the plot rasterized on the CPU, as `fulcrum run --plot` does), and plot
// channels coming and going.
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
    // the JSON line: type, joint, time (round trip), a vector
    const char* head = "{\"type\":\"release\",\"joint\":\"dome\",\"time\":";
    ENSURE(strncmp(json, head, strlen(head)) == 0);
    ENSURE(strtod(json + strlen(head), NULL) == release.time);
    ENSURE(strstr(json, "\"forceBefore\":") != NULL && strstr(json, "\"positionB\":[") != NULL);
    ENSURE(strstr(json, "\"velocityB\":[") != NULL && json[strlen(json) - 1] == '\n' && json[strlen(json) - 2] == '}');

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

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_canvas_raster);
    RUN_TEST(test_pick_spheres);
    RUN_TEST(test_drag_tension);
    RUN_TEST(test_events);
    RUN_TEST(test_log);
    RUN_TEST(test_plot_channels);
    TEST_MAIN_END();
}
