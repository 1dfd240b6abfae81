// SPDX-License-Identifier: MIT
// Checks of the viewer's headless output (tests/CMakeLists.txt):
//   view_check png FILE [CONTACTS]  the screenshot is 1280x720 and not blank: the scene part (left 60 %) holds
//                             body-coloured pixels (warm: red well above blue), the plot panel holds pixels of
//                             the first series' colour (0.30, 0.72, 1.00); with CONTACTS, the scene holds at
//                             least that many pixels of the contact markers' pink
//   view_check csv FILE TOL PEAK  the plot buffer's first series follows its exact column within TOL N (at most
//                             2 samples beyond it, each printed: the engine reports an occasional one-step
//                             outlier, see the report), and its largest value is at least PEAK N
//   view_check plotpng FILE W H PEAK TOP  `fulcrum run --plot`'s PNG is W x H; its plot area (plot.c's
//                             fcPlot_Area) holds the first series' curve, whose highest pixel reads PEAK N
//                             (within 1 % of the axis) on an axis that autoscaled to TOP N, and which spans
//                             the area's width
#include <stb/stb_image.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The contact markers' pink (1.0, 0.45, 0.85), lit, and their normals' (1.0, 0.62, 0.92) blended.
// By hue, not brightness: blue at least 0.78 of red and green under 0.6 of it (the cylinders' mauve and the
// third series' red are not).
static int fcPink(int r, int g, int b) { return r > 150 && r >= b && b > 0.78 * r && g < 0.6 * r; }

static int fcCheckPng(const char* path, int minContacts)
{
    int w = 0, h = 0, n = 0;
    unsigned char* p = stbi_load(path, &w, &h, &n, 4);
    if (p == NULL) {
        fprintf(stderr, "cannot read %s as PNG\n", path);
        return 1;
    }
    int sceneWidth = (int)(w * 0.6), warm = 0, series = 0, pink = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const unsigned char* c = p + 4 * ((size_t)y * w + x);
            int r = c[0], g = c[1], b = c[2];
            if (x < sceneWidth && y > 90 && y < h - 40 && r > 90 && r > b + 60) ++warm;
            if (x >= sceneWidth && abs(r - 77) < 16 && abs(g - 184) < 16 && abs(b - 255) < 16) ++series;
            if (x < sceneWidth && y > 150 && y < h - 150 && fcPink(r, g, b)) ++pink;
        }
    stbi_image_free(p);
    printf("%s: %dx%d, %d body-coloured pixels in the scene, %d series-coloured pixels in the plot, %d contact-pink "
           "pixels in the scene\n", path, w, h, warm, series, pink);
    if (w != 1280 || h != 720) return fprintf(stderr, "expected 1280x720\n"), 1;
    if (warm < 20) return fprintf(stderr, "the scene shows no bodies\n"), 1;
    if (series < 100) return fprintf(stderr, "the plot shows no curve\n"), 1;
    if (pink < minContacts) return fprintf(stderr, "the scene shows no contacts (fewer than %d pink pixels)\n", minContacts), 1;
    return 0;
}

static int fcCheckCsv(const char* path, double tolerance, double peak)
{
    FILE* f = fopen(path, "r");
    if (f == NULL) return fprintf(stderr, "cannot open %s\n", path), 1;
    char line[4096];
    if (fgets(line, sizeof line, f) == NULL || strstr(line, ".exact") == NULL) {
        fclose(f);
        return fprintf(stderr, "%s: no exact column in the header\n", path), 1;
    }
    int rows = 0, outliers = 0;
    double worst = 0, worstT = 0, largest = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        double t, value, exact;
        if (sscanf(line, "%lf,%lf,%lf", &t, &value, &exact) != 3) {
            fclose(f);
            return fprintf(stderr, "%s: bad row %s", path, line), 1;
        }
        ++rows;
        double e = fabs(value - exact);
        if (t > 0 && e > tolerance) {
            ++outliers;
            printf("outlier at t = %.6f s: |F| %.9g N, exact %.9g N, off by %.3g N\n", t, value, exact, value - exact);
            continue;
        }
        if (t > 0 && e > worst) worst = e, worstT = t;
        if (value > largest) largest = value;
    }
    fclose(f);
    printf("%s: %d samples, largest |F| %.6g N, largest |F - exact| %.3g N at t = %.4f s (%d outliers beyond %g N)\n",
           path, rows, largest, worst, worstT, outliers, tolerance);
    if (rows < 10) return fprintf(stderr, "too few samples\n"), 1;
    if (outliers > 2) return fprintf(stderr, "the plot is off the exact curve by more than %g N\n", tolerance), 1;
    if (!(largest >= peak)) return fprintf(stderr, "the peak %g N was not reached\n", peak), 1;
    return 0;
}

// The plot area of a panel at (0, 0, w, h): plot.c's fcPlot_Area, restated here as the layout under test.
static void fcPlotArea(int w, int h, double area[4]) { area[0] = 64, area[1] = 58, area[2] = w - 18, area[3] = h - 160; }

static int fcCheckPlotPng(const char* path, int width, int height, double peak, double top)
{
    int w = 0, h = 0, n = 0;
    unsigned char* p = stbi_load(path, &w, &h, &n, 4);
    if (p == NULL) return fprintf(stderr, "cannot read %s as PNG\n", path), 1;
    double area[4];
    fcPlotArea(w, h, area);
    int count = 0, yTop = h, xLeft = w, xRight = -1;
    for (int y = (int)area[1]; y <= (int)area[3]; ++y)
        for (int x = (int)area[0]; x <= (int)area[2]; ++x) {
            const unsigned char* c = p + 4 * ((size_t)y * w + x);
            if (abs(c[0] - 77) < 20 && abs(c[1] - 184) < 20 && abs(c[2] - 255) < 20) {
                ++count;
                if (y < yTop) yTop = y;
                if (x < xLeft) xLeft = x;
                if (x > xRight) xRight = x;
            }
        }
    stbi_image_free(p);
    // the curve is 2 px wide: its top pixel row is about 1 px above the value's line
    double value = top * (area[3] - (yTop + 1.0)) / (area[3] - area[1]);
    printf("%s: %dx%d, %d curve pixels in the plot area, from x = %d to %d; its top at y = %d reads %.3f N (expected %g N "
           "on an axis to %g N)\n", path, w, h, count, xLeft, xRight, yTop, value, peak, top);
    if (w != width || h != height) return fprintf(stderr, "expected %dx%d\n", width, height), 1;
    if (count < 300) return fprintf(stderr, "the plot shows no curve\n"), 1;
    if (fabs(value - peak) > 0.01 * top) return fprintf(stderr, "the curve's peak is off\n"), 1;
    if (xLeft > area[0] + 3 || xRight < area[2] - 3) return fprintf(stderr, "the curve does not span the run\n"), 1;
    return 0;
}

int main(int argc, char** argv)
{
    if (argc == 7 && strcmp(argv[1], "plotpng") == 0)
        return fcCheckPlotPng(argv[2], atoi(argv[3]), atoi(argv[4]), atof(argv[5]), atof(argv[6]));
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "png") == 0) return fcCheckPng(argv[2], argc == 4 ? atoi(argv[3]) : 0);
    if (argc == 5 && strcmp(argv[1], "csv") == 0) return fcCheckCsv(argv[2], atof(argv[3]), atof(argv[4]));
    fprintf(stderr, "usage: view_check png FILE [CONTACTS] | view_check csv FILE TOLERANCE PEAK | view_check plotpng FILE W H PEAK TOP\n");
    return 2;
}
