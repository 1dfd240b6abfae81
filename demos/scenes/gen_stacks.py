#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes stacks.json: three towers of six (cylinders, hull cubes, boxes) on a triangle-mesh ground.
# Run from this directory: python3 gen_stacks.py
import json

SQUARES, SIDE = 4, 1.0  # the ground: SQUARES x SQUARES squares of SIDE m, two triangles each, centred on the origin
RADIUS, HALF_HEIGHT = 0.25, 0.1  # cylinders
HALF = 0.2  # hull cubes and boxes
COUNT = 6


def ground():
    n = SQUARES
    vertices = [[(i - n / 2) * SIDE, (j - n / 2) * SIDE, 0] for j in range(n + 1) for i in range(n + 1)]
    triangles = []
    for j in range(n):
        for i in range(n):
            a = j * (n + 1) + i
            triangles += [[a, a + 1, a + n + 2], [a, a + n + 2, a + n + 1]]
    return {"name": "ground", "type": "static",
            "shapes": [{"type": "mesh", "vertices": vertices, "triangles": triangles, "friction": 0.8}]}


def tower(prefix, x, half, shape):
    return [{"name": "%s%d" % (prefix, k), "position": [x, 0, round(half + 2 * half * k, 12)],
             "shapes": [dict(shape, density=500, friction=0.8)]} for k in range(COUNT)]


cube = [[sx * HALF, sy * HALF, sz * HALF] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
bodies = [ground()]
bodies += tower("cyl", -1.5, HALF_HEIGHT, {"type": "cylinder", "radius": RADIUS, "half_height": HALF_HEIGHT})
bodies += tower("hull", 0, HALF, {"type": "hull", "points": cube})
bodies += tower("box", 1.5, HALF, {"type": "box", "half_extents": [HALF, HALF, HALF]})
scene = {
    "name": "stacks",
    "description": "Three towers of six on a triangle-mesh ground (4 x 4 squares of two triangles each): cylinders "
                   "(radius 0.25 m, 0.2 m tall, 19.63 kg), hull cubes and boxes (0.4 m, 32 kg), density 500, friction "
                   "0.8, h = 1/60 s, just touching at the start. They stand: the ground carries the weight of all 18 "
                   "bodies, 4922.8 N, and each body's contacts together carry its own m g. A cylinder's cap on another's "
                   "clips to its 16 rim points, reduced to four that stay fixed in the cylinder while it rocks, and a "
                   "point whose id changes keeps its impulse where it is (docs/physics.md, warm start): without them "
                   "this tower of cylinders fell within 10 s.",
    "gravity": [0, 0, -9.81],
    "timestep": 1 / 60,
    "duration": 10,
    "bodies": bodies,
}
with open("stacks.json", "w") as f:
    f.write("{\n")
    keys = [k for k in scene if k != "bodies"]
    for k in keys:
        f.write("  %s: %s,\n" % (json.dumps(k), json.dumps(scene[k])))
    f.write('  "bodies": [\n')
    f.write(",\n".join("    " + json.dumps(b) for b in bodies))
    f.write("\n  ]\n}\n")
