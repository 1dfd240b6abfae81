// SPDX-License-Identifier: MIT
// The plot panel drawn into a canvas (GL-free): the viewer shows it beside the scene, `fulcrum run --plot`
// rasterizes the same drawing on the CPU and writes it as PNG.
#ifndef FC_VIEW_PLOT_H
#define FC_VIEW_PLOT_H

#include "canvas.h"
#include "model.h"

/// The colour of a series' colour slot (fcPlot.color), rgba.
const float* fcPlot_SeriesColor(int slot);
/// The colour of the event markers, rgba.
const float* fcPlot_EventColor(fcEventType type);
/// Draw the panel into the rectangle [x0, x1] x [y0, y1] (pixels, y down). footer: a dim last line, or NULL.
void fcPlot_Draw(fcCanvas* canvas, const fcScene* scene, const fcPlot* plot, float x0, float y0, float x1, float y1,
                 const char* footer);
/// The plot area of a panel of that rectangle (where the curves go), for tests and picking.
void fcPlot_Area(float x0, float y0, float x1, float y1, float area[4]);
/// Draw the panel alone at width x height on the CPU and write it as PNG to f (opened "wb"). False on a
/// write error.
bool fcPlot_WritePng(const fcPlot* plot, const fcScene* scene, FILE* f, int width, int height);

#endif
