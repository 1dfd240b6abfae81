// SPDX-License-Identifier: MIT
// The `fulcrum` program: a table of commands (run, demo, view, help); with no arguments it runs the demo.
#include "run.h"
#ifdef FC_HAVE_VIEWER
#include "view.h"
#endif

#include <stdio.h>
#include <string.h>

typedef int fcCommandFcn(int argc, char** argv);

typedef struct fcCommand {
    const char* name;
    fcCommandFcn* fcn;
    const char* usage;    // arguments after the name
    const char* summary;  // one line
} fcCommand;

static int fcHelpCommand(int argc, char** argv);

// Add a command (e.g. `view`) with one line here.
static const fcCommand fc_commands[] = {
    {"run", fcRun_Command, "SCENE.json [options]", "step a scene file headless; print its reaction-force summary (--csv, --plot, --events)"},
    {"demo", fcRun_DemoCommand, "[options]", "run the default demo scene (pendulum.json) headless"},
#ifdef FC_HAVE_VIEWER
    {"view", fcView_Command, "[SCENE.json|DEMO] [options]", "open the viewer (--list: demos; --frames N: headless; --help: keys)"},
#endif
    {"help", fcHelpCommand, "", "print this help"},
};
#define FC_COMMAND_COUNT ((int)(sizeof fc_commands / sizeof fc_commands[0]))

static void fcPrintUsage(FILE* stream)
{
    fprintf(stream, "usage: fulcrum [COMMAND [ARGS]]   (no command: the viewer with a display, else fulcrum demo)\n\ncommands:\n");
    for (int i = 0; i < FC_COMMAND_COUNT; ++i) {
        char head[80];
        snprintf(head, sizeof head, "%s %s", fc_commands[i].name, fc_commands[i].usage);
        fprintf(stream, "  %-34s %s\n", head, fc_commands[i].summary);
    }
    fprintf(stream, "\noptions of run and demo:\n");
    fcRun_PrintOptions(stream);
    fprintf(stream, "\nScenes are JSON files (docs/scene-format.md); the shipped ones are in %s\n"
                    "(override with the FULCRUM_SCENE_DIR environment variable).\n"
                    "Exit status: 0 success, 1 the run failed, 2 bad arguments or a bad scene (nothing written).\n",
            fcRun_SceneDirectory());
}

static int fcHelpCommand(int argc, char** argv)
{
    (void)argc;
    (void)argv;
    fcPrintUsage(stdout);
    return fc_exitOk;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
#ifdef FC_HAVE_VIEWER
        // with a display: the viewer's window; without one: the headless summary, then a headless render
        if (fcView_HaveDisplay()) return fcView_Command(0, argv + argc);
        int code = fcRun_DemoCommand(0, argv + argc);
        return code != fc_exitOk ? code : fcView_DefaultHeadless();
#else
        return fcRun_DemoCommand(0, argv + argc);
#endif
    }
    const char* name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) return fcHelpCommand(0, NULL);
    for (int i = 0; i < FC_COMMAND_COUNT; ++i)
        if (strcmp(name, fc_commands[i].name) == 0) return fc_commands[i].fcn(argc - 2, argv + 2);
    fprintf(stderr, "fulcrum: unknown command \"%s\"\n\n", name);
    fcPrintUsage(stderr);
    return fc_exitUsage;
}
