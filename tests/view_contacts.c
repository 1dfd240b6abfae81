// SPDX-License-Identifier: MIT
// The viewer on the contact demos, headless (SDL's offscreen driver), through its own frame loop:
//   - skier: the contact's release is one event at 48.19 deg (+- 0.5; a twin of the scene, stepped alike, says
//     where the skier was at the event's time), with its log line, and its marker (a dashed line and a
//     triangle in the release colour) is drawn in the window's plot panel at its time;
//   - box_on_plane: the 4 contact forces sum to m g, and each is drawn as an arrow of its length, tip at the
//     contact point, from under the ground: the pixels along it change when C hides the contacts, in the
//     arrow's colour, and nothing changes at the box's middle;
//   - dominoes: a click on a body without joints adds its contact channel to the plot (and a second click on
//     another removes that one), and the channel then plots the total contact force of the frame record.
#include "plot.h"
#include "render.h"
#include "view_events.h"

#define PI 3.14159265358979323846

static int fcOpen(const char* demo)
{
    int code = -1;
    char err[2048];
    fc_viewer = fcViewer_Open(demo, true, 1280, 720, &code, err, sizeof err);
    if (fc_viewer == NULL) fprintf(stderr, "  %s\n", err);
    ENSURE(fc_viewer != NULL && code == 0);
    return 0;
}

// Is the pixel in the release markers' colour (yellow: red and green well above blue)?
static bool fcReleaseColored(const unsigned char* c) { return c[0] > 120 && c[1] > 100 && c[2] + 60 < c[1]; }

static int test_skier_release_marker(void)
{
    if (fcOpen("skier")) return 1;
    const fcScene* s = fcViewer_GetScene(fc_viewer);
    const double h = fcWorld_GetTimestep(s->world);
    // 4.1 s: the skier has left the dome (at about 3.9 s) and the contact has ended
    if (fcFrames(246)) return 1;
    const fcPlot* plot = fcViewer_GetPlot(fc_viewer);
    int releases = 0;
    double t = 0;
    for (int e = 0; e < plot->eventCount; ++e) {
        const fcPlotEvent* ev = plot->events + (plot->eventHead + e) % FC_PLOT_MAX_EVENTS;
        if (ev->type != fc_eventRelease) continue;
        ++releases;
        t = ev->t;
        ENSURE(ev->contact && ev->joint == -1);
    }
    ENSURE(releases == 1);
    // the log names it, with its time
    char want[64];
    snprintf(want, sizeof want, "t = %.4f s  contact dome - skier released", t);
    const char* logged = NULL;
    for (int i = 0; fcViewLog_Line(fcViewer_GetLog(fc_viewer), i) != NULL; ++i)
        if (strstr(fcViewLog_Line(fcViewer_GetLog(fc_viewer), i), want) != NULL) logged = fcViewLog_Line(fcViewer_GetLog(fc_viewer), i);
    ENSURE(logged != NULL);

    // the twin: where the skier was at that time (its state at the start of the event's step, moved on)
    fcScene twin;
    char err[512];
    ENSURE(fcScene_Load(fcViewer_GetScenePath(fc_viewer), &twin, err, sizeof err));
    int skier = fcScene_FindBody(&twin, "skier");
    ENSURE(skier >= 0);
    while (fcWorld_GetTime(twin.world) + h < t) ENSURE(fcWorld_Step(twin.world));
    fcVec3 p = fcBody_GetPosition(twin.bodies[skier]), v = fcBody_GetLinearVelocity(twin.bodies[skier]);
    fcVec3 x = fcVec3_MulAdd(p, t - fcWorld_GetTime(twin.world), v);
    double angle = acos(x.z / fcVec3_Length(x)) * 180 / PI, exact = acos(2.0 / 3.0) * 180 / PI;
    fcScene_Free(&twin);

    // the window: the marker's dashed line in the plot panel at x(t), its triangle at the top, nothing else in
    // the release colour below the panel's top row of ticks
    int w = 0, hh = 0;
    unsigned char* px = fcViewer_ReadPixels(fc_viewer, &w, &hh);
    ENSURE(px != NULL && w == 1280 && hh == 720);
    float area[4];
    fcPlot_Area((float)fcRenderer_SceneWidth(w), 0, (float)w, (float)hh, area);
    double tMax = fmax(plot->t[fcPlot_Index(plot, plot->count - 1)], plot->window);
    double expectX = area[0] + (t - (tMax - plot->window)) / plot->window * (area[2] - area[0]);
    int near = 0, head = 0, far = 0;
    for (int y = (int)area[1] - 6; y < (int)area[3]; ++y)
        for (int xx = (int)area[0] + 6; xx < (int)area[2]; ++xx) {
            if (!fcReleaseColored(px + 4 * ((size_t)y * w + xx))) continue;
            if (y < (int)area[1] + 10) head += fabs(xx - expectX) <= 6;
            else if (fabs(xx - expectX) <= 3) ++near;
            else if (y > (int)area[1] + 16) ++far;
        }
    free(px);
    printf("  skier: released at t = %.4f s, %.3f deg (exact %.3f); the marker: %d pixels within 3 px of x = %.1f, %d in "
           "its triangle, %d elsewhere\n  log: %s\n", t, angle, exact, near, expectX, head, far, logged);
    ENSURE_NEAR(angle, exact, 0.5);
    ENSURE(t > 3 && t < 4.1);
    ENSURE(near >= 100);
    ENSURE(head >= 15);
    ENSURE(far <= 10);
    fcViewer_Close(fc_viewer);
    return 0;
}

static double fcDistance(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

static int test_box_contact_arrows(void)
{
    if (fcOpen("box_on_plane")) return 1;
    const fcScene* s = fcViewer_GetScene(fc_viewer);
    if (fcFrames(30)) return 1;
    fcPushKey(SDLK_SPACE);  // paused: the next two frames draw the same state
    if (fcFrames(1)) return 1;
    ENSURE(fcViewer_IsPaused(fc_viewer));
    int w = 0, h = 0;
    unsigned char* shown = fcViewer_ReadPixels(fc_viewer, &w, &h);
    fcPushKey(SDLK_c);
    if (fcFrames(1)) return 1;
    unsigned char* hidden = fcViewer_ReadPixels(fc_viewer, &w, &h);
    ENSURE(shown != NULL && hidden != NULL);
    ENSURE(strstr(fcViewLog_Line(fcViewer_GetLog(fc_viewer), 0), "contacts hidden") != NULL);

    const fcViewFrame* f = fcViewer_GetStep(fc_viewer);
    int box = fcScene_FindBody(s, "box");
    double mg = fcBody_GetMass(s->bodies[box]) * 9.81, sum = 0, scale = fcViewer_ArrowScale(fc_viewer);
    ENSURE(f->contactCount == 4);
    int good = 0;
    for (int i = 0; i < f->contactCount; ++i) {
        const fcViewContact* c = f->contacts + i;
        sum += c->force;
        ENSURE(c->body == box && c->normal[2] > 0.999999);
        // the arrow as the viewer should draw it: length |F| / scale, tip at the point, from under the ground
        double length = c->force / scale, tail[3], tip[3], mid[3], drawnTail[3], drawnTip[3];
        for (int k = 0; k < 3; ++k) tail[k] = c->point[k] - length * c->normal[k], tip[k] = c->point[k];
        ENSURE(fcViewer_ContactArrow(fc_viewer, c, drawnTail, drawnTip));
        ENSURE_LE(fcDistance(tail, drawnTail) + fcDistance(tip, drawnTip), 1e-12);
        // along its shaft (the middle of it, and a quarter from the tail), the pixels changed by hiding the contacts,
        // and their colour's hue (each channel over the largest) is the arrow's
        float expect[3];
        fcViewer_ArrowColor(fc_viewer, c->force, expect);
        float em = fmaxf(expect[0], fmaxf(expect[1], expect[2]));
        int changed = 0;
        double hue[3] = {0, 0, 0};
        for (int q = 0; q < 2; ++q) {
            double at = q == 0 ? 0.5 : 0.25, win[2];
            for (int k = 0; k < 3; ++k) mid[k] = tail[k] + at * (tip[k] - tail[k]);
            ENSURE(fcViewer_WorldToWindow(fc_viewer, mid, win));
            for (int dy = -2; dy <= 2; ++dy)
                for (int dx = -2; dx <= 2; ++dx) {
                    int x = (int)lround(win[0]) + dx, y = (int)lround(win[1]) + dy;
                    if (x < 0 || y < 0 || x >= w || y >= h) continue;
                    const unsigned char *a = shown + 4 * ((size_t)y * w + x), *b = hidden + 4 * ((size_t)y * w + x);
                    if (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) < 60) continue;
                    int m = a[0] > a[1] ? (a[0] > a[2] ? a[0] : a[2]) : (a[1] > a[2] ? a[1] : a[2]);
                    ++changed;
                    for (int k = 0; k < 3; ++k) hue[k] += (double)a[k] / (m > 0 ? m : 1);
                }
        }
        for (int k = 0; k < 3; ++k) hue[k] /= changed > 0 ? changed : 1;
        bool colored = changed > 0 && fabs(hue[0] - expect[0] / em) < 0.1 && fabs(hue[1] - expect[1] / em) < 0.1 &&
                       fabs(hue[2] - expect[2] / em) < 0.1;
        printf("  contact %d: %.3f N, arrow %.4f m; %d of 50 pixels on its shaft changed, hue (%.2f, %.2f, %.2f), the "
               "arrow's (%.2f, %.2f, %.2f)\n", i, c->force, length, changed, hue[0], hue[1], hue[2], expect[0] / em,
               expect[1] / em, expect[2] / em);
        ENSURE(changed >= 10);
        good += colored;
    }
    // the box's middle (on screen: its front face) is left alone
    double centre[3] = {0, 0, 0.1}, win[2];
    ENSURE(fcViewer_WorldToWindow(fc_viewer, centre, win));
    int middle = 0;
    for (int dy = -3; dy <= 3; ++dy)
        for (int dx = -3; dx <= 3; ++dx) {
            int x = (int)lround(win[0]) + dx, y = (int)lround(win[1]) + dy;
            const unsigned char *a = shown + 4 * ((size_t)y * w + x), *b = hidden + 4 * ((size_t)y * w + x);
            middle += abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) >= 60;
        }
    free(shown);
    free(hidden);
    printf("  the 4 normal forces sum to %.6f N (m g = %.6f N); %d arrows in their colour; %d changed pixels at the "
           "box's middle\n", sum, mg, good, middle);
    ENSURE_NEAR(sum, mg, 1e-3 * mg);
    ENSURE(good >= 3);  // one may be seen only through the box, darker (its hue stays)
    ENSURE(middle == 0);
    fcViewer_Close(fc_viewer);
    return 0;
}

static int test_click_contact_channel(void)
{
    if (fcOpen("dominoes")) return 1;
    const fcScene* s = fcViewer_GetScene(fc_viewer);
    if (fcFrames(6)) return 1;
    fcPushKey(SDLK_SPACE);
    if (fcFrames(1)) return 1;
    const fcPlot* plot = fcViewer_GetPlot(fc_viewer);
    int d3 = fcScene_FindBody(s, "d3"), d12 = fcScene_FindBody(s, "d12");
    ENSURE(d3 >= 0 && d12 >= 0 && s->jointCount == 0);
    ENSURE(plot->seriesCount == 3 && fcPlot_FindBodySeries(plot, d12) == 2 && fcPlot_FindBodySeries(plot, d3) == -1);
    // the faces towards the camera (-y) of two standing dominoes, half way up
    const fcViewFrame* f = fcViewer_GetStep(fc_viewer);
    double p3[3] = {f->bodies[d3].p[0], -0.09, 0.25}, p12[3] = {f->bodies[d12].p[0], -0.09, 0.25};
    if (fcClickAt(p3)) return 1;
    ENSURE(fcPlot_FindBodySeries(plot, d3) == 3 && plot->seriesCount == 4);
    ENSURE(strstr(fcViewLog_Line(fcViewer_GetLog(fc_viewer), 0), "plot: + d3 contacts") != NULL);
    if (fcClickAt(p12)) return 1;
    ENSURE(fcPlot_FindBodySeries(plot, d12) == -1 && plot->seriesCount == 3 && fcPlot_FindBodySeries(plot, d3) == 2);
    // a step: the new channel plots the total contact force on d3 (standing: its weight)
    fcPushKey(SDLK_s);
    if (fcFrames(1)) return 1;
    f = fcViewer_GetStep(fc_viewer);
    int last = fcPlot_Index(plot, plot->count - 1);
    double mg = fcBody_GetMass(s->bodies[d3]) * 9.81;
    printf("  d3's contact channel: %.6f N (its weight %.6f N), %d points\n", plot->force[last][2], mg,
           f->bodyContacts[d3].points);
    ENSURE(plot->force[last][2] == f->bodyContacts[d3].magnitude);
    ENSURE_NEAR(plot->force[last][2], mg, 0.01 * mg);
    fcViewer_Close(fc_viewer);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_skier_release_marker);
    RUN_TEST(test_box_contact_arrows);
    RUN_TEST(test_click_contact_channel);
    TEST_MAIN_END();
}
