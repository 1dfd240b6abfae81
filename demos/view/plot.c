// SPDX-License-Identifier: MIT
// The plot panel (see plot.h): axes, ticks, autoscale, the channels' curves, the exact curves dashed under
// them, event markers and a legend with the current values and errors.
#include "plot.h"

#include <stb/stb_image_write.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const float fc_seriesColors[FC_PLOT_MAX_SERIES][4] = {
    {0.30f, 0.72f, 1.00f, 1}, {0.45f, 0.90f, 0.40f, 1}, {1.00f, 0.45f, 0.55f, 1},
    {0.80f, 0.60f, 1.00f, 1}, {1.00f, 0.70f, 0.30f, 1}, {0.40f, 0.90f, 0.90f, 1},
};
static const float fc_eventColors[2][4] = {{1.00f, 0.86f, 0.25f, 1}, {0.95f, 0.95f, 0.95f, 1}};  // lets go, takes hold
static const float fc_textColor[4] = {0.90f, 0.92f, 0.95f, 1};
static const float fc_dimText[4] = {0.62f, 0.66f, 0.72f, 1};
static const float fc_panelColor[4] = {0.075f, 0.08f, 0.095f, 1};
static const float fc_gridColor[4] = {0.20f, 0.22f, 0.26f, 1};
static const float fc_axisColor[4] = {0.55f, 0.58f, 0.64f, 1};
static const float fc_exactColor[4] = {0.97f, 0.97f, 0.97f, 0.9f};

const float* fcPlot_SeriesColor(int slot) { return fc_seriesColors[(unsigned)slot % FC_PLOT_MAX_SERIES]; }
const float* fcPlot_EventColor(fcEventType type) { return fc_eventColors[fcViewEvent_LetsGo(type) ? 0 : 1]; }

void fcPlot_Area(float x0, float y0, float x1, float y1, float area[4])
{
    area[0] = x0 + 64, area[1] = y0 + 58, area[2] = x1 - 18, area[3] = y1 - 160;
}

// Titles by what the channels are: joints only, contacts only, or both.
static const char* const fc_titles[3][fc_plotQuantityCount] = {
    {"joint reaction force |F| (force on body b)", "joint moment |M| about the anchor (torque on body b)",
     "joint reaction force components (world x, y, z)"},
    {"contact force |F| (all contacts on the body, summed)", "contact moment |M| about the body's centre",
     "contact force components (world x, y, z)"},
    {"|F|: joint force on body b, contact force on the body", "|M|: joints about the anchor, contacts about the centre",
     "force components: joints on body b, contacts on the body"},
};
static const char* const fc_axisLabels[fc_plotQuantityCount] = {"|F| [N]", "|M| [N m]", "F_x F_y F_z [N]"};

// A polyline of one series' component through the samples shown; dash: 0 solid, else the on/off lengths.
typedef struct fcPlotMap {
    float px0, py0, px1, py1;
    double tMin, tMax, vLow, vHigh;
} fcPlotMap;

static float fcMapX(const fcPlotMap* m, double t) { return m->px0 + (float)((t - m->tMin) / (m->tMax - m->tMin)) * (m->px1 - m->px0); }
static float fcMapY(const fcPlotMap* m, double v) { return m->py1 - (float)((v - m->vLow) / (m->vHigh - m->vLow)) * (m->py1 - m->py0); }

static void fcPolyline(fcCanvas* b, const fcPlotMap* m, const fcPlot* plot, int s, int component, bool exact, float width,
                       float on, float off, const float color[4])
{
    float dash = 0;
    for (int i = 1; i < plot->count; ++i) {
        int a = fcPlot_Index(plot, i - 1), k = fcPlot_Index(plot, i);
        double va = exact ? plot->exactValue[a][s] : fcPlot_Value(plot, a, s, component);
        double vb = exact ? plot->exactValue[k][s] : fcPlot_Value(plot, k, s, component);
        if (plot->t[a] < m->tMin || !isfinite(va) || !isfinite(vb)) continue;
        float xa = fcMapX(m, plot->t[a]), ya = fcMapY(m, va), xb = fcMapX(m, plot->t[k]), yb = fcMapY(m, vb);
        if (on > 0) {
            dash += sqrtf((xb - xa) * (xb - xa) + (yb - ya) * (yb - ya));
            if (fmodf(dash, on + off) >= on) continue;
        }
        fcCanvas_Line(b, xa, ya, xb, yb, width, color);
    }
}

// A release or hold (a joint's or a contact's: the load reached zero, or took hold): a triangle pointing down
// (let go) or up (took hold); friction slipping or sticking: a diamond; a contact beginning or ending and a
// sensor's events: a short tick under the top of the plot (they are many).
static void fcMarker(fcCanvas* b, float x, float y, fcEventType type, bool contact, float size)
{
    const float* c = fcPlot_EventColor(type);
    if (contact && type != fc_eventStickToSlip && type != fc_eventSlipToStick && type != fc_eventRelease &&
        type != fc_eventHold) {
        fcCanvas_Line(b, x, y - size, x, y + size, 1.5f, c);
    } else if (type == fc_eventStickToSlip || type == fc_eventSlipToStick) {
        fcCanvas_Triangle(b, x - size, y, x, y - size, x + size, y, c);
        fcCanvas_Triangle(b, x - size, y, x + size, y, x, y + size, c);
    } else if (fcViewEvent_LetsGo(type)) {
        fcCanvas_Triangle(b, x - size, y - size, x + size, y - size, x, y + size, c);
    } else {
        fcCanvas_Triangle(b, x - size, y + size, x + size, y + size, x, y - size, c);
    }
}

void fcPlot_Draw(fcCanvas* b, const fcScene* scene, const fcPlot* plot, float x0, float y0, float x1, float y1,
                 const char* footer)
{
    fcCanvas_Rect(b, x0, y0, x1, y1, fc_panelColor);
    char text[256];
    fcPlotQuantity q = plot->quantity < fc_plotQuantityCount ? plot->quantity : fc_plotForce;
    int joints = 0, contacts = 0;
    for (int s = 0; s < plot->seriesCount; ++s) joints += plot->joint[s] >= 0, contacts += plot->joint[s] < 0;
    int kind = contacts == 0 ? (joints == 0 && scene->jointCount == 0 ? 1 : 0) : joints == 0 ? 1 : 2;
    fcCanvas_Text(b, x0 + 16, y0 + 10, fc_titles[kind][q], fc_textColor);
    if (footer != NULL) fcCanvas_Text(b, x0 + 16, y1 - 20, footer, fc_dimText);

    float area[4];
    fcPlot_Area(x0, y0, x1, y1, area);
    fcPlotMap m = {area[0], area[1], area[2], area[3], 0, 1, 0, 1};
    if (plot->seriesCount == 0 || plot->count == 0) {
        fcCanvas_Text(b, m.px0, m.py0 + 20, plot->seriesCount == 0 ? "(no channels: click a joint or a body)" : "(no data yet)",
                      fc_dimText);
        return;
    }
    double tNew = plot->t[fcPlot_Index(plot, plot->count - 1)];
    m.tMax = fmax(tNew, plot->window), m.tMin = m.tMax - plot->window;
    int components = q == fc_plotComponents ? 3 : 1;
    double lo = 0, hi = 0;
    for (int i = 0; i < plot->count; ++i) {
        int k = fcPlot_Index(plot, i);
        if (plot->t[k] < m.tMin) continue;
        for (int s = 0; s < plot->seriesCount; ++s) {
            for (int c = 0; c < components; ++c) {
                double v = fcPlot_Value(plot, k, s, c);
                if (isfinite(v)) lo = fmin(lo, v), hi = fmax(hi, v);
            }
            if (q == fc_plotForce && isfinite(plot->exactValue[k][s])) hi = fmax(hi, plot->exactValue[k][s]);
        }
    }
    double span = fmax(hi - lo, 1e-6);
    double vStep = fcNiceStep(span * 1.1 / 5);
    m.vHigh = vStep * ceil((hi + 0.1 * span * (hi > 0)) / vStep);
    m.vLow = lo < 0 ? vStep * floor((lo - 0.1 * span) / vStep) : 0;
    if (!(m.vHigh > m.vLow)) m.vHigh = m.vLow + vStep;

    // grid and ticks
    for (int i = 0; m.vLow + i * vStep <= m.vHigh * (1 + 1e-9) + 1e-12; ++i) {
        double v = m.vLow + i * vStep;
        if (fabs(v) < 1e-9 * vStep) v = 0;
        float y = fcMapY(&m, v);
        fcCanvas_Line(b, m.px0, y, m.px1, y, v == 0 && m.vLow < 0 ? 1.5f : 1, v == 0 && m.vLow < 0 ? fc_axisColor : fc_gridColor);
        fcCanvas_Line(b, m.px0 - 5, y, m.px0, y, 1.5f, fc_axisColor);
        snprintf(text, sizeof text, "%g", v);
        fcCanvas_Text(b, m.px0 - 9 - fcCanvas_TextWidth(text), y - 5, text, fc_dimText);
    }
    double tStep = fcNiceStep(plot->window / 5);
    for (double t = ceil(m.tMin / tStep - 1e-9) * tStep; t <= m.tMax + 1e-9; t += tStep) {
        float x = fcMapX(&m, t);
        fcCanvas_Line(b, x, m.py0, x, m.py1, 1, fc_gridColor);
        fcCanvas_Line(b, x, m.py1, x, m.py1 + 5, 1.5f, fc_axisColor);
        snprintf(text, sizeof text, "%g", fabs(t) < 1e-9 ? 0.0 : t);
        fcCanvas_Text(b, x - fcCanvas_TextWidth(text) / 2, m.py1 + 9, text, fc_dimText);
    }
    fcCanvas_Line(b, m.px0, m.py0, m.px0, m.py1, 1.5f, fc_axisColor);
    fcCanvas_Line(b, m.px0, m.py1, m.px1, m.py1, 1.5f, fc_axisColor);
    fcCanvas_Text(b, (m.px0 + m.px1) / 2 - fcCanvas_TextWidth("time t [s]") / 2, m.py1 + 28, "time t [s]", fc_textColor);
    fcCanvas_Text(b, x0 + 12, m.py0 - 22, fc_axisLabels[q], fc_textColor);

    // event markers: a release or hold (a joint's or a contact's) as a dashed line at its time with its marker
    // at the top, friction's as a diamond, a contact beginning or ending as a tick only
    int eventsShown = 0, frictionShown = 0, contactsShown = 0;
    for (int e = 0; e < plot->eventCount; ++e) {
        const fcPlotEvent* ev = plot->events + (plot->eventHead + e) % FC_PLOT_MAX_EVENTS;
        if (ev->t < m.tMin || ev->t > m.tMax) continue;
        float x = fcMapX(&m, ev->t);
        if (ev->type == fc_eventStickToSlip || ev->type == fc_eventSlipToStick) {  // a resting contact can chatter
            ++frictionShown;
            fcMarker(b, x, m.py0 + 14, ev->type, ev->contact, 4);
            continue;
        }
        if (ev->contact && ev->type != fc_eventRelease && ev->type != fc_eventHold) {
            ++contactsShown;
            fcMarker(b, x, m.py0 + 6, ev->type, true, 5);
            continue;
        }
        ++eventsShown;
        const float* c = fcPlot_EventColor(ev->type);
        float faint[4] = {c[0], c[1], c[2], 0.8f};
        for (float y = m.py0 + 8; y < m.py1; y += 9) fcCanvas_Line(b, x, y, x, fminf(y + 5, m.py1), 2, faint);
        fcMarker(b, x, m.py0 + 2, ev->type, ev->contact, 5);
    }

    // exact curves (dashed, light) under the measured ones
    if (q == fc_plotForce)
        for (int s = 0; s < plot->seriesCount; ++s)
            if (plot->exact[s] != NULL) fcPolyline(b, &m, plot, s, 0, true, 3.5f, 8, 6, fc_exactColor);
    static const float dashes[3][2] = {{0, 0}, {9, 5}, {2.5f, 4}};  // x solid, y dashed, z dotted
    for (int s = 0; s < plot->seriesCount; ++s)
        for (int c = 0; c < components; ++c)
            fcPolyline(b, &m, plot, s, c, false, 2, dashes[c][0], dashes[c][1], fcPlot_SeriesColor(plot->color[s]));

    // legend: the current values and, against an exact curve, the current error
    int last = fcPlot_Index(plot, plot->count - 1);
    float ly = m.py1 + 46;
    int pad = 12;  // the names in one column
    for (int s = 0; s < plot->seriesCount; ++s) {
        char name[96];
        fcPlot_SeriesName(plot, scene, s, name, sizeof name);
        pad = (int)strlen(name) > pad ? (int)strlen(name) : pad;
    }
    for (int s = 0; s < plot->seriesCount; ++s, ly += 16) {
        fcCanvas_Rect(b, x0 + 16, ly + 2, x0 + 34, ly + 8, fcPlot_SeriesColor(plot->color[s]));
        char name[96];
        fcPlot_SeriesName(plot, scene, s, name, sizeof name);
        double v = fcPlot_Value(plot, last, s, 0);
        if (q == fc_plotComponents) {
            const double* f = plot->component[last][s];
            snprintf(text, sizeof text, "%-*s (%9.3f, %9.3f, %9.3f) N", pad, name, f[0], f[1], f[2]);
        } else if (q == fc_plotMoment) {
            snprintf(text, sizeof text, "%-*s %10.4f N m", pad, name, v);
        } else if (plot->exact[s] != NULL) {
            snprintf(text, sizeof text, "%-*s %10.4f N   error %+.2e N", pad, name, v, v - plot->exactValue[last][s]);
        } else {
            snprintf(text, sizeof text, "%-*s %10.4f N", pad, name, v);
        }
        fcCanvas_Text(b, x0 + 42, ly, text, fc_textColor);
    }
    int exactCount = 0;
    for (int s = 0; s < plot->seriesCount; ++s) exactCount += plot->exact[s] != NULL;
    // one line per exact curve when they fit above the panel's bottom (with the events' line), else one for all
    bool fit = ly + 16.0f * (float)(exactCount + 1) <= y1 - 4;
    if (q == fc_plotForce && exactCount > 0)
        for (int s = 0; s < plot->seriesCount; ++s) {
            if (plot->exact[s] == NULL) continue;
            fcCanvas_Line(b, x0 + 16, ly + 5, x0 + 22, ly + 5, 3, fc_exactColor);
            fcCanvas_Line(b, x0 + 27, ly + 5, x0 + 34, ly + 5, 3, fc_exactColor);
            char name[96];
            fcPlot_SeriesName(plot, scene, s, name, sizeof name);
            if (fit) snprintf(text, sizeof text, "%s: %s", name, plot->exact[s]->label);
            else snprintf(text, sizeof text, "dashed: the exact curves (%d channels)", exactCount);
            fcCanvas_Text(b, x0 + 42, ly, text, fc_dimText);
            ly += 16;
            if (!fit) break;
        }
    if (q == fc_plotComponents) {
        fcCanvas_Text(b, x0 + 42, ly, "x solid, y dashed, z dotted", fc_dimText);
        ly += 16;
    }
    if (eventsShown + frictionShown + contactsShown > 0) {
        fcMarker(b, x0 + 21, ly + 5, fc_eventRelease, false, 4);
        fcMarker(b, x0 + 30, ly + 5, fc_eventHold, false, 4);
        snprintf(text, sizeof text, "events %d, slip/stick %d, contacts %d (the log has them)", eventsShown, frictionShown,
                 contactsShown);
        fcCanvas_Text(b, x0 + 42, ly, text, fc_dimText);
    }
}

static void fcWriteToFile(void* context, void* data, int size) { fwrite(data, 1, (size_t)size, (FILE*)context); }

bool fcPlot_WritePng(const fcPlot* plot, const fcScene* scene, FILE* f, int width, int height)
{
    fcCanvas canvas;
    memset(&canvas, 0, sizeof canvas);
    fcPlot_Draw(&canvas, scene, plot, 0, 0, (float)width, (float)height, NULL);
    unsigned char* rgba = calloc((size_t)width * (size_t)height, 4);
    if (rgba == NULL) {
        fcCanvas_Free(&canvas);
        return false;
    }
    fcCanvas_Rasterize(&canvas, rgba, width, height);
    bool ok = stbi_write_png_to_func(fcWriteToFile, f, width, height, 4, rgba, 4 * width) != 0 && ferror(f) == 0;
    free(rgba);
    fcCanvas_Free(&canvas);
    return ok;
}
