// SPDX-License-Identifier: MIT
// The viewer tests' input: synthetic SDL events pushed into the queue that the viewer's own frame loop reads,
// frames run on the test's viewer (fc_viewer), and a click at a world point. One copy for every view test.
#ifndef FC_VIEW_EVENTS_H
#define FC_VIEW_EVENTS_H

#include "view.h"

#include "test_macros.h"

#include <SDL.h>

static fcViewer* fc_viewer;

static inline void fcPushKey(SDL_Keycode key)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.state = SDL_PRESSED;
    e.key.keysym.sym = key;
    SDL_PushEvent(&e);
}

static inline void fcPushButton(Uint32 type, int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.button.x = x, e.button.y = y;
    SDL_PushEvent(&e);
}

// a drag with the left button held
static inline void fcPushMotion(int x, int y, int xrel, int yrel)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.state = SDL_BUTTON_LMASK;
    e.motion.x = x, e.motion.y = y, e.motion.xrel = xrel, e.motion.yrel = yrel;
    SDL_PushEvent(&e);
}

// n frames of 1/60 s through the viewer's loop, with no GL error
static inline int fcFrames(int n)
{
    for (int i = 0; i < n; ++i) ENSURE(fcViewer_Frame(fc_viewer, 1.0 / 60));
    ENSURE(fcViewer_TakeGlError(fc_viewer) == 0);
    return 0;
}

// a left click at world point p, and the frame that takes it
static inline int fcClickAt(const double p[3])
{
    double w[2];
    ENSURE(fcViewer_WorldToWindow(fc_viewer, p, w));
    fcPushButton(SDL_MOUSEBUTTONDOWN, (int)lround(w[0]), (int)lround(w[1]));
    fcPushButton(SDL_MOUSEBUTTONUP, (int)lround(w[0]), (int)lround(w[1]));
    return fcFrames(1);
}

#endif
