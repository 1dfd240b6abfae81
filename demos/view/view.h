// SPDX-License-Identifier: MIT
// `fulcrum view`: the interactive viewer (SDL2 window, OpenGL 3.3 core) and its headless mode.
#ifndef FC_VIEW_H
#define FC_VIEW_H

#include <stdbool.h>

/// `fulcrum view [SCENE.json|DEMO] [options]`: argv holds the words after "view".
int fcView_Command(int argc, char** argv);
/// The program's no-argument path without a display: render the default demo headless, write its
/// screenshot and plot PNGs into the current directory and print where they are.
int fcView_DefaultHeadless(void);
/// True when a window can be opened: DISPLAY or WAYLAND_DISPLAY is set.
bool fcView_HaveDisplay(void);

#endif
