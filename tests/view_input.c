// SPDX-License-Identifier: MIT
// The viewer's input, headless: synthetic SDL events (SDL_PushEvent) through the viewer's own frame loop pause
// and single-step the pendulum, pick and drag its bob (the bob moves, and the pivot's reaction changes in the
// very step the spring acts, by the spring's pull along the rod), click plot channels on and off and switch
// the plotted quantity. A twin of the scene, stepped alike without the mouse, is the reference.
#include "view_events.h"

static double fcTime(void) { return fcViewer_GetStep(fc_viewer)->time; }

// Step a twin of the viewer's scene to the same step count.
static int fcStepTwin(fcScene* twin, long long steps)
{
    for (long long k = 0; k < steps; ++k) ENSURE(fcWorld_Step(twin->world));
    return 0;
}

static int test_input(void)
{
    int code = -1;
    char err[2048];
    fc_viewer = fcViewer_Open("pendulum", true, 1280, 720, &code, err, sizeof err);
    if (fc_viewer == NULL) fprintf(stderr, "  %s\n", err);
    ENSURE(fc_viewer != NULL && code == 0);
    const fcScene* s = fcViewer_GetScene(fc_viewer);
    const double h = fcWorld_GetTimestep(s->world);
    ENSURE_NEAR(h, 1.0 / 240, 1e-15);

    // running: 30 frames of 1/60 s are 120 steps of 1/240 s
    if (fcFrames(30)) return 1;
    ENSURE_NEAR(fcTime(), 120 * h, 1e-9);
    // space pauses: 20 frames later the time has not moved
    fcPushKey(SDLK_SPACE);
    if (fcFrames(1)) return 1;
    ENSURE(fcViewer_IsPaused(fc_viewer));
    double t0 = fcTime();
    if (fcFrames(20)) return 1;
    ENSURE(fcTime() == t0);
    // S steps once, and stays paused
    fcPushKey(SDLK_s);
    if (fcFrames(1)) return 1;
    ENSURE_NEAR(fcTime(), t0 + h, 1e-12);
    fcPushKey(SDLK_s);
    fcPushKey(SDLK_s);
    if (fcFrames(3)) return 1;
    ENSURE_NEAR(fcTime(), t0 + 3 * h, 1e-12);
    ENSURE(fcViewer_IsPaused(fc_viewer));
    long long steps = (long long)llround(fcTime() / h);
    printf("  pause and step: t = %.6f s after %lld steps, paused\n", fcTime(), steps);

    // the twin, at the same state
    fcScene twin;
    ENSURE(fcScene_Load(fcViewer_GetScenePath(fc_viewer), &twin, err, sizeof err));
    if (fcStepTwin(&twin, steps)) return 1;
    const fcViewFrame* f = fcViewer_GetStep(fc_viewer);
    fcVec3 tb = fcBody_GetPosition(twin.bodies[0]);
    ENSURE_NEAR(f->bodies[0].p[0], tb.x, 1e-12);
    ENSURE_NEAR(f->bodies[0].p[2], tb.z, 1e-12);

    // press on the bob and move 80 px down the screen: the drag spring grabs it (at its centre: the bob is
    // drawn larger than its 1 cm sphere)
    double bob[3] = {f->bodies[0].p[0], f->bodies[0].p[1], f->bodies[0].p[2]}, w[2];
    ENSURE(fcViewer_WorldToWindow(fc_viewer, bob, w));
    int x = (int)lround(w[0]), y = (int)lround(w[1]);
    printf("  the bob at (%.4f, %.4f, %.4f) m is drawn at pixel (%d, %d)\n", bob[0], bob[1], bob[2], x, y);
    fcPushButton(SDL_MOUSEBUTTONDOWN, x, y);
    fcPushMotion(x, y + 3, 0, 3);  // under the click threshold: still a click
    if (fcFrames(1)) return 1;
    ENSURE(!fcViewer_GetDrag(fc_viewer)->active);
    fcPushMotion(x, y + 80, 0, 77);
    if (fcFrames(1)) return 1;
    const fcDrag* drag = fcViewer_GetDrag(fc_viewer);
    ENSURE(drag->active && drag->body == 0);
    ENSURE(strstr(fcViewLog_Line(fcViewer_GetLog(fc_viewer), 0), "dragging bob") != NULL);
    double grab[3];
    fcDrag_Point(drag, s, grab);
    ENSURE_NEAR(grab[0], bob[0], 0.01);  // within the bob's 1 cm sphere (the ray missed its centre by < 1 px)
    ENSURE_NEAR(grab[2], bob[2], 0.01);
    double pull = sqrt(pow(drag->target[0] - grab[0], 2) + pow(drag->target[1] - grab[1], 2) + pow(drag->target[2] - grab[2], 2));
    ENSURE(pull > 0.1 && drag->target[2] < grab[2]);  // 80 px down the screen: the target is below the bob

    // one step with the spring: the pivot's reaction differs from the twin's by the pull along the rod
    fcPushKey(SDLK_s);
    if (fcFrames(1)) return 1;
    if (fcStepTwin(&twin, 1)) return 1;
    f = fcViewer_GetStep(fc_viewer);
    fcVec3 tf = fcJoint_GetReaction(twin.joints[0]).force;
    double F[3] = {drag->force[0], drag->force[1], drag->force[2]};
    double u[3] = {bob[0], bob[1], bob[2]}, ul = sqrt(bob[0] * bob[0] + bob[1] * bob[1] + bob[2] * bob[2]);
    double Fu = (F[0] * u[0] + F[1] * u[1] + F[2] * u[2]) / (ul * ul);
    double d[3] = {f->joints[0].force[0] - tf.x, f->joints[0].force[1] - tf.y, f->joints[0].force[2] - tf.z};
    double miss = sqrt(pow(d[0] + Fu * u[0], 2) + pow(d[1] + Fu * u[1], 2) + pow(d[2] + Fu * u[2], 2));
    double Fn = sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]), dn = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    printf("  first dragged step: spring %.3f N; pivot force %.4f N against %.4f N undragged: changed by %.4f N, "
           "the pull along the rod is %.4f N (off by %.2e N)\n",
           Fn, f->joints[0].magnitude, fcVec3_Length(tf), dn, fabs(Fu) * ul, miss);
    // the velocity solve cancels the spring's pull along the rod exactly; the projection adds the centripetal
    // change of the faster bob (2 m v dv / l, here about 1.5 % of the pull)
    ENSURE(Fn > 5);
    ENSURE(dn > 1);
    ENSURE_LE(miss, 0.04 * Fn);
    ENSURE(f->drag.active && f->drag.body == 0);  // the frame record carries the spring for drawing

    // run 0.5 s holding the drag: the bob follows the cursor, the twin swings on
    fcPushKey(SDLK_SPACE);
    if (fcFrames(30)) return 1;
    ENSURE(!fcViewer_IsPaused(fc_viewer));
    long long more = (long long)llround(fcTime() / h) - steps - 1;
    ENSURE(more == 120);
    if (fcStepTwin(&twin, more)) return 1;
    f = fcViewer_GetStep(fc_viewer);
    tb = fcBody_GetPosition(twin.bodies[0]);
    const double* p = f->bodies[0].p;
    double toTarget = sqrt(pow(p[0] - drag->target[0], 2) + pow(p[1] - drag->target[1], 2) + pow(p[2] - drag->target[2], 2));
    double twinToTarget = sqrt(pow(tb.x - drag->target[0], 2) + pow(tb.y - drag->target[1], 2) + pow(tb.z - drag->target[2], 2));
    double apart = sqrt(pow(p[0] - tb.x, 2) + pow(p[1] - tb.y, 2) + pow(p[2] - tb.z, 2));
    printf("  after 0.5 s of dragging: the bob is %.4f m from the target (the twin %.4f m), %.4f m from the twin\n",
           toTarget, twinToTarget, apart);
    ENSURE(apart > 0.1);
    ENSURE(toTarget < twinToTarget - 0.1);
    ENSURE_NEAR(sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), 1, 1e-8);  // still on its rod

    // let go
    fcPushButton(SDL_MOUSEBUTTONUP, x, y + 80);
    if (fcFrames(1)) return 1;
    ENSURE(!fcViewer_GetDrag(fc_viewer)->active);

    // clicks: on the bob, its channel (the pivot, which holds it) goes off and on again; on the pivot's anchor too
    fcPushKey(SDLK_SPACE);
    if (fcFrames(1)) return 1;
    ENSURE(fcViewer_IsPaused(fc_viewer));
    const fcPlot* plot = fcViewer_GetPlot(fc_viewer);
    ENSURE(plot->seriesCount == 1 && plot->joint[0] == 0);
    f = fcViewer_GetStep(fc_viewer);
    double bobNow[3] = {f->bodies[0].p[0], f->bodies[0].p[1], f->bodies[0].p[2]}, pivot[3] = {0, 0, 0};
    if (fcClickAt(bobNow)) return 1;
    ENSURE(plot->seriesCount == 0);
    ENSURE(strcmp(fcViewLog_Line(fcViewer_GetLog(fc_viewer), 0), "plot: - pivot (bob)") == 0);
    if (fcClickAt(bobNow)) return 1;
    ENSURE(plot->seriesCount == 1 && plot->joint[0] == 0);
    if (fcClickAt(pivot)) return 1;
    ENSURE(plot->seriesCount == 0);
    ENSURE(strstr(fcViewLog_Line(fcViewer_GetLog(fc_viewer), 0), "clicked its anchor") != NULL);
    if (fcClickAt(pivot)) return 1;
    ENSURE(plot->seriesCount == 1);
    ENSURE(!fcViewer_GetDrag(fc_viewer)->active);  // clicks never drag

    // F cycles what the plot shows
    ENSURE(plot->quantity == fc_plotForce);
    fcPushKey(SDLK_f);
    if (fcFrames(1)) return 1;
    ENSURE(plot->quantity == fc_plotMoment);
    fcPushKey(SDLK_f);
    fcPushKey(SDLK_f);
    if (fcFrames(1)) return 1;
    ENSURE(plot->quantity == fc_plotForce);

    // R resets to t = 0 and keeps the pause
    fcPushKey(SDLK_r);
    if (fcFrames(1)) return 1;
    ENSURE(fcTime() == 0);

    // the picture: bodies in the scene, the curve in the plot
    int width = 0, height = 0;
    unsigned char* pixels = fcViewer_ReadPixels(fc_viewer, &width, &height);
    ENSURE(pixels != NULL && width == 1280 && height == 720);
    free(pixels);
    fcScene_Free(&twin);
    fcViewer_Close(fc_viewer);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_input);
    TEST_MAIN_END();
}
