// SPDX-License-Identifier: MIT
// 2D triangle lists and their CPU rasterizer (see canvas.h).
#include "canvas.h"

#include <stb/stb_easy_font.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fcCanvas_Push(fcCanvas* b, float x, float y, float z, const float c[4])
{
    if (b->count == b->capacity) {
        b->capacity = b->capacity ? 2 * b->capacity : 4096;
        fcCanvasVertex* v = realloc(b->v, (size_t)b->capacity * sizeof *v);
        if (v == NULL) {
            fprintf(stderr, "fulcrum: out of memory\n");
            abort();
        }
        b->v = v;
    }
    fcCanvasVertex* v = b->v + b->count++;
    v->p[0] = x, v->p[1] = y, v->p[2] = z;
    memcpy(v->c, c, sizeof v->c);
}

void fcCanvas_Free(fcCanvas* b)
{
    free(b->v);
    memset(b, 0, sizeof *b);
}

void fcCanvas_Rect(fcCanvas* b, float x0, float y0, float x1, float y1, const float c[4])
{
    fcCanvas_Push(b, x0, y0, 0, c), fcCanvas_Push(b, x1, y0, 0, c), fcCanvas_Push(b, x1, y1, 0, c);
    fcCanvas_Push(b, x0, y0, 0, c), fcCanvas_Push(b, x1, y1, 0, c), fcCanvas_Push(b, x0, y1, 0, c);
}

void fcCanvas_Triangle(fcCanvas* b, float x0, float y0, float x1, float y1, float x2, float y2, const float c[4])
{
    fcCanvas_Push(b, x0, y0, 0, c), fcCanvas_Push(b, x1, y1, 0, c), fcCanvas_Push(b, x2, y2, 0, c);
}

void fcCanvas_Line(fcCanvas* b, float x0, float y0, float x1, float y1, float width, const float c[4])
{
    float dx = x1 - x0, dy = y1 - y0, n = sqrtf(dx * dx + dy * dy);
    if (!(n > 0)) return;
    float nx = -dy / n * width * 0.5f, ny = dx / n * width * 0.5f;
    fcCanvas_Push(b, x0 + nx, y0 + ny, 0, c), fcCanvas_Push(b, x1 + nx, y1 + ny, 0, c), fcCanvas_Push(b, x1 - nx, y1 - ny, 0, c);
    fcCanvas_Push(b, x0 + nx, y0 + ny, 0, c), fcCanvas_Push(b, x1 - nx, y1 - ny, 0, c), fcCanvas_Push(b, x0 - nx, y0 - ny, 0, c);
}

float fcCanvas_TextWidth(const char* text) { return (float)stb_easy_font_width((char*)text) * FC_TEXT_SCALE; }

void fcCanvas_Text(fcCanvas* b, float x, float y, const char* text, const float c[4])
{
    static char buffer[64 * 1024];  // stb_easy_font: about 270 bytes per character
    unsigned char rgba[4] = {255, 255, 255, 255};
    int quads = stb_easy_font_print(0, 0, (char*)text, rgba, buffer, sizeof buffer);
    for (int q = 0; q < quads; ++q) {
        const float* v = (const float*)(buffer + q * 64);  // 4 vertices of x, y, z, rgba8
        float x0 = x + v[0] * FC_TEXT_SCALE, y0 = y + v[1] * FC_TEXT_SCALE;
        float x1 = x + v[8] * FC_TEXT_SCALE, y1 = y + v[9] * FC_TEXT_SCALE;
        fcCanvas_Rect(b, x0, y0, x1, y1, c);
    }
}

double fcNiceStep(double x)
{
    if (!(x > 0)) return 1;
    double p = pow(10, floor(log10(x))), f = x / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

// ---------------------------------------------------------------------------------------------------------------------
// The CPU rasterizer: 2 x 2 samples a pixel, each sample filled by the top-left rule (so the two triangles of a
// rectangle never blend their shared diagonal twice), then averaged.
// ---------------------------------------------------------------------------------------------------------------------

// Edge function: > 0 on the inner side of a -> b for a triangle of positive area.
static float fcEdge(const float* a, const float* b, float x, float y) { return (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]); }

// With y down and positive area, the top edge runs in +x and left edges run upwards (dy < 0).
static bool fcTopLeft(const float* a, const float* b)
{
    float dx = b[0] - a[0], dy = b[1] - a[1];
    return dy < 0 || (dy == 0 && dx > 0);
}

void fcCanvas_Rasterize(const fcCanvas* c, unsigned char* rgba, int width, int height)
{
    const int S = 2;
    int sw = width * S, sh = height * S;
    float* samples = malloc((size_t)sw * (size_t)sh * 3 * sizeof(float));
    if (samples == NULL) {
        fprintf(stderr, "fulcrum: out of memory\n");
        abort();
    }
    for (int y = 0; y < sh; ++y)
        for (int x = 0; x < sw; ++x)
            for (int k = 0; k < 3; ++k)
                samples[3 * ((size_t)y * sw + x) + k] = rgba[4 * ((size_t)(y / S) * width + x / S) + k] / 255.0f;
    for (int t = 0; t + 2 < c->count; t += 3) {
        float v[3][2];
        for (int i = 0; i < 3; ++i) v[i][0] = c->v[t + i].p[0] * S, v[i][1] = c->v[t + i].p[1] * S;
        float area = fcEdge(v[0], v[1], v[2][0], v[2][1]);
        if (!(fabsf(area) > 0)) continue;
        if (area < 0) {  // make the winding positive
            float s0 = v[1][0], s1 = v[1][1];
            v[1][0] = v[2][0], v[1][1] = v[2][1], v[2][0] = s0, v[2][1] = s1;
        }
        const float* col = c->v[t].c;
        float alpha = fminf(fmaxf(col[3], 0), 1);
        int x0 = (int)floorf(fminf(v[0][0], fminf(v[1][0], v[2][0])));
        int x1 = (int)ceilf(fmaxf(v[0][0], fmaxf(v[1][0], v[2][0])));
        int y0 = (int)floorf(fminf(v[0][1], fminf(v[1][1], v[2][1])));
        int y1 = (int)ceilf(fmaxf(v[0][1], fmaxf(v[1][1], v[2][1])));
        x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
        x1 = x1 > sw ? sw : x1, y1 = y1 > sh ? sh : y1;
        bool tl[3] = {fcTopLeft(v[0], v[1]), fcTopLeft(v[1], v[2]), fcTopLeft(v[2], v[0])};
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) {
                float px = (float)x + 0.5f, py = (float)y + 0.5f;
                float e[3] = {fcEdge(v[0], v[1], px, py), fcEdge(v[1], v[2], px, py), fcEdge(v[2], v[0], px, py)};
                bool inside = true;
                for (int i = 0; i < 3 && inside; ++i) inside = e[i] > 0 || (e[i] == 0 && tl[i]);
                if (!inside) continue;
                float* s = samples + 3 * ((size_t)y * sw + x);
                for (int k = 0; k < 3; ++k) s[k] = col[k] * alpha + s[k] * (1 - alpha);
            }
    }
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int k = 0; k < 3; ++k) {
                float sum = 0;
                for (int j = 0; j < S; ++j)
                    for (int i = 0; i < S; ++i) sum += samples[3 * ((size_t)(y * S + j) * sw + (x * S + i)) + k];
                float value = fminf(fmaxf(sum / (float)(S * S), 0), 1);
                rgba[4 * ((size_t)y * width + x) + k] = (unsigned char)lrintf(value * 255);
            }
    for (size_t i = 3; i < (size_t)width * height * 4; i += 4) rgba[i] = 255;
    free(samples);
}
