#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the standard benchmark scenes of fulcrum-bench (shared/reference/benchmark-scenes.md):
#   s1_chain.json, s2_heavy_chain.json, s3_pyramid.json, s4_rain.json, s5_pendulum.json, s7_ragdolls.json.
# S6 (1000- and 10000-link chains) is written in memory by fulcrum-bench itself (bench/bench.c), with the
# same layout as S1. Run from this directory: python3 gen_scenes.py
import json
import math

IXX = 1.0 * (0.02**2 + 0.02**2) / 12
IYY = 1.0 * (0.1**2 + 0.02**2) / 12


def chain(name, what, heavy):
    bodies, joints = [], []
    for i in range(50):
        s = 1000.0 if heavy and i == 49 else 1.0
        # mask 0: the boxes are geometry only; S1 and S2 have no collision at all
        bodies.append({"name": "link%02d" % i, "position": [round(0.05 + 0.1 * i, 12), 0, 0], "mass": s,
                       "inertia": [s * IXX, s * IYY, s * IYY],
                       "shapes": [{"type": "box", "half_extents": [0.05, 0.01, 0.01], "filter": {"category": 1, "mask": 0}}]})
        joints.append({"name": "j%02d" % i, "type": "ball", "body_a": "world" if i == 0 else "link%02d" % (i - 1),
                       "body_b": "link%02d" % i, "anchor": [round(0.1 * i, 12), 0, 0]})
    return {"name": name, "description": what, "timestep": 1 / 60, "duration": 10, "sleeping": False,
            "bodies": bodies, "joints": joints}


def cube(name, p, q, half, mass):
    inertia = mass * (2 * half) ** 2 / 6
    b = {"name": name, "position": p, "mass": mass, "inertia": [inertia] * 3,
         "shapes": [{"type": "box", "half_extents": [half] * 3, "friction": 0.6}]}
    if q is not None:
        b["orientation"] = q
    return b


GROUND = {"name": "ground", "type": "static", "shapes": [{"type": "plane", "friction": 0.6}]}


def pyramid():
    bodies = [GROUND]
    for r in range(20):
        n = 20 - r
        for j in range(n):
            bodies.append(cube("b%02d_%02d" % (r, j), [round((j - (n - 1) / 2) * 1.05, 12), 0, 0.5 + r], None, 0.5, 1.0))
    return {"name": "S3", "description": "S3 pyramid: 210 unit cubes of 1 kg (inertia 1/6) in 20 rows, row r holding "
            "20 - r boxes 0.05 m apart, on the ground plane z = 0; mu 0.6, restitution 0; h = 1/60 s, 600 steps.",
            "timestep": 1 / 60, "duration": 10, "sleeping": False, "bodies": bodies}


def rain():
    bodies = [GROUND]
    for l in range(10):
        for j in range(10):
            for i in range(10):
                k = i + 10 * j + 100 * l
                q = [1, 0.05 * (k % 7 - 3), 0.05 * (k % 5 - 2), 0.10 * (k % 3 - 1)]
                n = math.sqrt(sum(c * c for c in q))
                bodies.append(cube("b%03d" % k, [i - 4.5, j - 4.5, 1.0 + l], [c / n for c in q], 0.25, 1.0))
    return {"name": "S4", "description": "S4 rain: 1000 cubes of edge 0.5 m and 1 kg, box k = i + 10 j + 100 l at "
            "(i - 4.5, j - 4.5, 1 + l) tilted by normalize(1, 0.05((k mod 7) - 3), 0.05((k mod 5) - 2), "
            "0.10((k mod 3) - 1)), falling onto the ground plane z = 0; mu 0.6; h = 1/60 s, 300 steps.",
            "timestep": 1 / 60, "duration": 5, "sleeping": False, "bodies": bodies}


def pendulum():
    return {"name": "S5", "description": "S5 pendulum tension: a sphere of radius 0.01 m and 1 kg (inertia 4e-5) at "
            "(1, 0, 0) on a ball joint to the world at the origin, released horizontal; exact tension "
            "3 m g cos(theta); h = 1/240 s, the first swing (284 steps).",
            "timestep": 1 / 240, "duration": 1.18, "sleeping": False,
            "bodies": [{"name": "bob", "position": [1, 0, 0], "mass": 1, "inertia": [4e-5, 4e-5, 4e-5],
                        "shapes": [{"type": "sphere", "radius": 0.01, "filter": {"category": 1, "mask": 0}}]}],
            "joints": [{"name": "pivot", "type": "ball", "body_a": "world", "body_b": "bob", "anchor": [0, 0, 0]}]}


def ragdolls():
    # the 20 ragdolls of bench/contacts.c: 10 capsules each on ball joints, dropped in a pile
    bodies, joints = [GROUND], []
    up = [1, 0, 0, 0]
    side = [math.cos(math.pi / 4), 0, math.sin(math.pi / 4), 0]  # about y by 90 degrees: local z along x

    def cap(name, p, q, r, hh, m):
        bodies.append({"name": name, "position": [round(c, 12) for c in p], "orientation": q, "mass": m,
                       "shapes": [{"type": "capsule", "radius": r, "half_height": hh, "friction": 0.6}]})

    def ball(name, a, b, p):
        joints.append({"name": name, "type": "ball", "body_a": a, "body_b": b, "anchor": [round(c, 12) for c in p]})

    for d in range(20):
        x, y, z = 0.3 * (d % 3) - 0.3, 0.3 * ((d // 3) % 3) - 0.3, 1.2 + 1.0 * d
        P = "r%02d_" % d
        cap(P + "pelvis", [x, y, z], side, 0.1, 0.1, 8)
        cap(P + "torso", [x, y, z + 0.35], up, 0.12, 0.12, 15)
        cap(P + "head", [x, y, z + 0.72], up, 0.1, 0.02, 4)
        ball(P + "waist", P + "pelvis", P + "torso", [x, y, z + 0.12])
        ball(P + "neck", P + "torso", P + "head", [x, y, z + 0.6])
        for s, side_name in ((-1, "l"), (1, "r")):
            cap(P + "uarm_" + side_name, [x + s * 0.38, y, z + 0.5], side, 0.05, 0.1, 2)
            cap(P + "larm_" + side_name, [x + s * 0.68, y, z + 0.5], side, 0.04, 0.1, 1.5)
            cap(P + "thigh_" + side_name, [x + s * 0.12, y, z - 0.3], up, 0.07, 0.12, 6)
            cap(P + "shin_" + side_name, [x + s * 0.12, y, z - 0.72], up, 0.06, 0.13, 4)
            ball(P + "shoulder_" + side_name, P + "torso", P + "uarm_" + side_name, [x + s * 0.23, y, z + 0.5])
            ball(P + "elbow_" + side_name, P + "uarm_" + side_name, P + "larm_" + side_name, [x + s * 0.53, y, z + 0.5])
            ball(P + "hip_" + side_name, P + "pelvis", P + "thigh_" + side_name, [x + s * 0.12, y, z - 0.1])
            ball(P + "knee_" + side_name, P + "thigh_" + side_name, P + "shin_" + side_name, [x + s * 0.12, y, z - 0.51])
    return {"name": "S7", "description": "S7 ragdolls: 20 ragdolls of 10 capsules (pelvis, torso, head, arms, legs) "
            "on ball joints, dropped in a pile onto the ground plane; mu 0.6; h = 1/60 s, 300 steps (the ragdolls "
            "of bench/contacts.c).", "timestep": 1 / 60, "duration": 5, "sleeping": False,
            "bodies": bodies, "joints": joints}


def write(path, scene):
    lines = ["{"]
    items = list(scene.items())
    for n, (key, value) in enumerate(items):
        end = "," if n + 1 < len(items) else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append('  "%s": [' % key)
            lines.append(",\n".join("    " + json.dumps(v) for v in value))
            lines.append("  ]" + end)
        else:
            lines.append('  "%s": %s%s' % (key, json.dumps(value), end))
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    write("s1_chain.json", chain("S1", "S1 chain: 50 boxes 0.1 x 0.02 x 0.02 m of 1 kg (Ixx = 6.667e-5, Iyy = Izz = "
                                 "8.667e-4 kg m^2) joined end to end by ball joints, released horizontal along +x, "
                                 "link 0's left end pinned at the origin; no collision; h = 1/60 s, 600 steps.", False))
    write("s2_heavy_chain.json", chain("S2", "S2 heavy chain: S1 with the last link 1000 kg and 1000 times the "
                                       "inertia; no collision; h = 1/60 s, 600 steps.", True))
    write("s3_pyramid.json", pyramid())
    write("s4_rain.json", rain())
    write("s5_pendulum.json", pendulum())
    write("s7_ragdolls.json", ragdolls())
