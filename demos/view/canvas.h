// SPDX-License-Identifier: MIT
// A GL-free list of coloured triangles in pixels (y down), with rectangles, thick lines and stb_easy_font text:
// the viewer uploads it to OpenGL, `fulcrum run --plot` rasterizes it on the CPU, so both draw the same plot.
#ifndef FC_VIEW_CANVAS_H
#define FC_VIEW_CANVAS_H

#include <stdbool.h>

typedef struct fcCanvasVertex {
    float p[3];  ///< x, y in pixels (2D) or world m (3D lines), z
    float c[4];  ///< rgba, 0..1
} fcCanvasVertex;

typedef struct fcCanvas {
    int count, capacity;
    fcCanvasVertex* v;
} fcCanvas;

void fcCanvas_Push(fcCanvas* c, float x, float y, float z, const float rgba[4]);
void fcCanvas_Free(fcCanvas* c);
void fcCanvas_Rect(fcCanvas* c, float x0, float y0, float x1, float y1, const float rgba[4]);
/// A line of the given width in pixels (a quad), nothing for a zero-length line.
void fcCanvas_Line(fcCanvas* c, float x0, float y0, float x1, float y1, float width, const float rgba[4]);
/// A filled triangle.
void fcCanvas_Triangle(fcCanvas* c, float x0, float y0, float x1, float y1, float x2, float y2, const float rgba[4]);
/// Text with its top left corner at (x, y), stb_easy_font scaled by FC_TEXT_SCALE (about 10 px per line).
void fcCanvas_Text(fcCanvas* c, float x, float y, const char* text, const float rgba[4]);
float fcCanvas_TextWidth(const char* text);
#define FC_TEXT_SCALE 1.5f

/// Rasterize the canvas's triangles into rgba (width x height, top row first, 4 bytes a pixel), blending each
/// by its alpha as OpenGL's (SRC_ALPHA, ONE_MINUS_SRC_ALPHA) does; 2 x 2 samples a pixel against jagged text.
void fcCanvas_Rasterize(const fcCanvas* c, unsigned char* rgba, int width, int height);

/// 1, 2 or 5 times a power of ten, near x: axis ticks, grid spacing, the arrow scale.
double fcNiceStep(double x);

#endif
