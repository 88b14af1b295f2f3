#!/usr/bin/env python3
"""Checks a figure --figure wrote (tests/samples/figure.sh), with Python's standard library only:

  figcheck.py svg FILE W H            the SVG parses as XML, an <svg> of W x H points, with
                                      its strokes and glyphs; prints its structure summary
  figcheck.py structure FILE CURVES POINTS LEGEND
                                      the chart's parts: one frame (the axes: a closed
                                      rectangle) and its ticks; CURVES line styles of
                                      PLOT_LINE_WIDTH, each exactly two paths: the curve
                                      (POINTS points, or any with 0) and its legend sample
                                      (2 points); LEGEND samples in all (the curves' and the
                                      grey reference lines'); LEGEND 0: no legend, each
                                      curve one path
  figcheck.py same GOT GOLDEN         the two SVGs have the same structure summary (every
                                      path's kind, colour, dash, width and points; the text
                                      runs), coordinates aside
  figcheck.py clear FILE              every marker inside a panel's frame stands clear of it
                                      by at least its own size (the frames: the closed black
                                      rectangles of the axes; a marker: a subpath of a filled
                                      path, its box of points)
  figcheck.py png FILE W H            a PNG signature and an IHDR of W x H pixels, not all one
                                      colour
  figcheck.py pdf FILE                the PDF's header and its trailer
  figcheck.py perturbation CSV JSON[,JSON...] [REL]
  figcheck.py halflives CSV JSON
  figcheck.py checkpoints CSV JSON
  figcheck.py lyapunov CSV JSON
  figcheck.py rows WHOLE PART A B     PART's rows are WHOLE's at steps A..B (the unit's CSV)
  figcheck.py steps CSV A B           a row for each step A..B, each with its value
  figcheck.py unit CSV DUMP UNIT SIGNAL FROM TO
                                      the CSV's numbers against the JSON the same run prints
                                      (--report --json, --lyapunov --json; a model's entries
                                      in {"models": [...]} by its place, the CSV's models the
                                      first of them) or the dump: equal as
                                      numbers; with REL, within REL * max(1e-12, |want|) of a
                                      float64 reference instead (curves) and REL * max(1,
                                      |want|) (half-lives)
Exit status 0 when it holds, 1 with a line saying what does not."""
import csv
import json
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"
LINE_WIDTH, BAR_WIDTH, AXIS_WIDTH, GRID_WIDTH, REF_WIDTH = 1.5, 0.9, 0.8, 0.4, 1.1


def fail(msg):
    print("figcheck: " + msg)
    sys.exit(1)


def style_of(el):
    st = {}
    for part in (el.get("style") or "").split(";"):
        if ":" in part:
            k, v = part.split(":", 1)
            st[k.strip()] = v.strip()
    for k in ("stroke", "fill", "stroke-width", "stroke-dasharray"):
        if el.get(k) is not None:
            st[k] = el.get(k)
    return st


def points(d):
    """The subpaths and points of a path's d: (subpaths, points, closed)."""
    cmds = re.findall(r"[MLCZmlcz]", d or "")
    return cmds.count("M") + cmds.count("m"), sum(c in "MLCmlc" for c in cmds), "Z" in cmds


def parts(path):
    """The drawn paths (not glyph outlines, not clip paths) and the text runs."""
    root = ET.parse(path).getroot()
    if root.tag != SVG + "svg":
        fail("%s: the root is %s, not <svg>" % (path, root.tag))
    skip = set()
    for tag in ("defs", "clipPath"):
        for el in root.iter(SVG + tag):
            for sub in el.iter():
                skip.add(id(sub))
    paths, texts = [], 0
    for el in root.iter():
        if id(el) in skip:
            continue
        if el.tag == SVG + "path":
            st = style_of(el)
            sub, pts, closed = points(el.get("d"))
            if st.get("stroke", "none") != "none":
                paths.append(("stroke", st["stroke"], st.get("stroke-dasharray", "-"),
                              float(st.get("stroke-width", "1")), sub, pts, closed))
            else:
                paths.append(("fill", st.get("fill", "-"), "-", 0.0, sub, pts, closed))
        elif el.tag == SVG + "g" and any(c.tag == SVG + "use" for c in el):
            texts += 1
    return root, paths, texts


def summary(path):
    _, paths, texts = parts(path)
    return ["%s %s %s %g %d %d %d" % p for p in paths] + ["text runs %d" % texts]


def cmd_svg(path, w, h):
    root, paths, texts = parts(path)
    if root.get("width") != "%spt" % w or root.get("height") != "%spt" % h:
        fail("%s: %s x %s, not %spt x %spt" % (path, root.get("width"), root.get("height"), w, h))
    strokes = [p for p in paths if p[0] == "stroke"]
    if not strokes or texts < 5:
        fail("%s: %d strokes and %d text runs" % (path, len(strokes), texts))
    print("%s: an SVG of %spt x %spt, %d paths (%d strokes), %d text runs"
          % (path, w, h, len(paths), len(strokes), texts))


def cmd_structure(path, curves, npoints, legend):
    _, paths, texts = parts(path)
    strokes = [p for p in paths if p[0] == "stroke"]
    frames = [p for p in strokes if p[1] == "rgb(0%,0%,0%)" and p[3] == AXIS_WIDTH and p[6]
              and p[4] <= 2 and p[5] in (4, 5)]
    ticks = [p for p in strokes if p[1] == "rgb(0%,0%,0%)" and p[3] == AXIS_WIDTH and not p[6]]
    if len(frames) != 1 or len(ticks) != 1:
        fail("%s: %d frames and %d tick paths, not one of each (the axes)"
             % (path, len(frames), len(ticks)))
    styles = {}
    for p in strokes:
        if p[3] == LINE_WIDTH:
            styles.setdefault((p[1], p[2]), []).append(p)
    if len(styles) != curves:
        fail("%s: %d line styles, not %d curves" % (path, len(styles), curves))
    for key, ps in styles.items():
        pts = sorted(p[5] for p in ps)
        if legend == 0 and len(ps) == 1 and (not npoints or pts[0] == npoints):
            continue  # a curve without a legend entry
        if len(ps) != 2 or pts[0] != 2 or (npoints and pts[1] != npoints) or ps[0][4] != 1:
            fail("%s: the curve %s %s is drawn as %d paths of %s points, not one of %d and its "
                 "legend sample of 2" % (path, key[0], key[1], len(ps), pts, npoints))
    refs = [p for p in strokes if p[3] == REF_WIDTH and p[5] == 2]
    samples = (curves if legend else 0) + len(refs) // 2
    if samples != legend or len(refs) % 2:
        fail("%s: %d legend samples (%d reference strokes), not %d"
             % (path, samples, len(refs), legend))
    print("%s: the axes (a frame and its ticks), %d curves each one path of %s points and a "
          "legend sample, %d legend entries, %d text runs"
          % (path, curves, npoints or "some", legend, texts))


def cmd_same(got, golden):
    a, b = summary(got), summary(golden)
    if a != b:
        diff = [(x, y) for x, y in zip(a, b) if x != y][:5]
        fail("%s differs from %s in structure: %d against %d parts; first differences: %s"
             % (got, golden, len(a), len(b), diff))
    print("%s: the structure of %s (%d parts)" % (got, golden, len(a)))


def cmd_png(path, w, h):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        fail("%s: no PNG signature and IHDR" % path)
    pw, ph, depth, ctype = struct.unpack(">IIBB", data[16:26])
    if (pw, ph) != (int(w), int(h)):
        fail("%s: %d x %d pixels, not %s x %s" % (path, pw, ph, w, h))
    idat, at = b"", 8
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + n]
        at += 12 + n
    raw = zlib.decompress(idat)
    if len(set(raw[1:len(raw):97])) < 3:
        fail("%s: the image is blank" % path)
    print("%s: a PNG of %d x %d pixels, depth %d, colour type %d, not blank"
          % (path, pw, ph, depth, ctype))


def cmd_pdf(path):
    data = open(path, "rb").read()
    if not data.startswith(b"%PDF-") or b"%%EOF" not in data[-64:] or b"/Page" not in data:
        fail("%s: not a whole PDF (its header, a page, its trailer)" % path)
    print("%s: %s, a page, %%%%EOF" % (path, data[:8].decode("latin-1").strip()))


def num(s):
    return math.nan if s == "" else float(s)


def same(got, want, what, rel=None, floor=1e-12):
    if want is None:
        want = math.nan
    if math.isnan(got) and math.isnan(want):
        return
    if rel is None:
        if got != want:
            fail("%s: %r in the CSV, %r in the JSON" % (what, got, want))
    elif not abs(got - want) <= rel * max(floor, abs(want)):
        fail("%s: %r, the reference %r (tolerance %g)" % (what, got, want, rel))


def reports(paths):
    """The reports of a JSON file, or of several files named with commas between, in order."""
    out = []
    for path in paths.split(","):
        d = json.load(open(path))
        out += d["models"] if "models" in d else [d]
    return out


def by_model(rows):
    order, out = [], {}
    for r in rows:
        if r["model"] not in out:
            order.append(r["model"])
            out[r["model"]] = []
        out[r["model"]].append(r)
    return order, out


def cmd_perturbation(csvf, jsonf, rel=None):
    order, rows = by_model(list(csv.DictReader(open(csvf))))
    reps = reports(jsonf)
    if len(order) > len(reps):
        fail("%d models in the CSV, %d in the JSON" % (len(order), len(reps)))
    checked = 0
    for name, rep in zip(order, reps):
        p = rep["perturbation"]
        curves = {r["curve"] for r in rows[name]}
        want = {k for k in ("cell", "hidden", "linearized", "forget_only") if p[k] is not None}
        # the carry gate alone: a GRU's (no cell curve) is its update gate's
        word = {"cell": "c", "hidden": "h",
                "forget_only": "forget_only" if p["cell"] is not None else "update_only"}
        if {word.get(c, c) for c in want} != curves:
            fail("%s: curves %s, the JSON has %s" % (name, sorted(curves), sorted(want)))
        for key in want:
            c = word.get(key, key)
            mine = {int(r["k"]): r for r in rows[name] if r["curve"] == c}
            if sorted(mine) != list(range(p["horizon"] + 1)):
                fail("%s %s: k %s, not 0..%d" % (name, c, sorted(mine)[:3], p["horizon"]))
            for k, v in zip(p["k"], p[key]):
                same(num(mine[k]["ratio"]), v, "%s %s at k %d" % (name, c, k), rel)
                checked += 1
            r0 = mine[0]
            hk = "halflife_" + key
            same(num(r0["halflife"]), p[hk], "%s %s's half-life" % (name, c),
                 rel, 1)
            ci = p["ci"][hk] or [None, None]
            same(num(r0["halflife_lo"]), ci[0], "%s %s's interval's low end" % (name, c), rel, 1)
            same(num(r0["halflife_hi"]), ci[1], "%s %s's interval's high end" % (name, c), rel, 1)
            if int(r0["beyond_horizon"]) != int(bool(p["beyond_horizon"][hk])):
                fail("%s %s: beyond the horizon %s, the JSON %s"
                     % (name, c, r0["beyond_horizon"], p["beyond_horizon"][hk]))
            checked += 4
    print("%s: %d numbers of %d models as %s has them%s"
          % (csvf, checked, len(order), jsonf, " (within %g)" % rel if rel else ""))


def cmd_halflives(csvf, jsonf):
    order, rows = by_model(list(csv.DictReader(open(csvf))))
    reps = reports(jsonf)
    checked = 0
    for name, rep in zip(order, reps):
        table = rep["unit_table"]
        drawn = {int(r["unit"]): r for r in rows[name]}
        for u in table:
            j = u["unit"]
            past = bool(u.get("beyond_horizon"))
            if j not in drawn:
                if (u["halflife_measured"] is not None or past) and u["halflife"] is not None:
                    fail("%s: unit %d is not drawn, though both its half-lives are" % (name, j))
                continue
            r = drawn[j]
            same(num(r["halflife_gate"]), u["halflife"], "%s unit %d's gate half-life" % (name, j))
            same(num(r["halflife_measured"]), u["halflife_measured"],
                 "%s unit %d's measured half-life" % (name, j))
            if int(r["beyond_horizon"]) != int(past):
                fail("%s unit %d: beyond %s, the JSON %s" % (name, j, r["beyond_horizon"], past))
            checked += 3
    print("%s: %d numbers of %d models' unit tables as %s has them" % (csvf, checked, len(order),
                                                                       jsonf))


def cmd_checkpoints(csvf, jsonf):
    rows = list(csv.DictReader(open(csvf)))
    reps = reports(jsonf)
    checked = 0
    cells = any(rep["perturbation"]["cell"] is not None for rep in reps)
    for r in rows:
        rep = reps[int(r["index"])]
        p = rep["perturbation"]
        carry = rep["units"]["gate"] if rep.get("units") else None
        lstm = p["cell"] is not None
        want = {"loss_bits": (rep["loss"]["bits"] if rep.get("loss") else None, None),
                "carry_gate_mean": (rep["gates"][carry]["mean"] if carry else None, None),
                "halflife_cell": (p["halflife_cell"] if lstm else None,
                                  p["ci"]["halflife_cell"] if lstm else None),
                "halflife_hidden": (p["halflife_hidden"], p["ci"]["halflife_hidden"]),
                "halflife_forget_only": (p["halflife_forget_only"],
                                         p["ci"]["halflife_forget_only"])}[r["measure"]]
        same(num(r["value"]), want[0], "%s %s" % (r["model"], r["measure"]))
        ci = want[1] or [None, None]
        same(num(r["lo"]), ci[0], "%s %s's low end" % (r["model"], r["measure"]))
        same(num(r["hi"]), ci[1], "%s %s's high end" % (r["model"], r["measure"]))
        checked += 3
    each = 5 if cells else 4  # the half-life of c only where a model has one
    if len(rows) != each * len(reps):
        fail("%d rows for %d models, not %d each" % (len(rows), len(reps), each))
    print("%s: %d numbers of %d models as %s has them" % (csvf, checked, len(reps), jsonf))


def cmd_lyapunov(csvf, jsonf):
    order, rows = by_model(list(csv.DictReader(open(csvf))))
    d = json.load(open(jsonf))
    spectra = d["models"] if "models" in d else [d]
    checked = 0
    for name, l in zip(order, spectra):
        if len(rows[name]) != l["modes"]:
            fail("%s: %d rows, %d exponents" % (name, len(rows[name]), l["modes"]))
        for r, x, se in zip(rows[name], l["exponents"], l["stderr"]):
            same(num(r["exponent"]), x, "%s exponent %s" % (name, r["index"]))
            same(num(r["stderr"]), se, "%s standard error %s" % (name, r["index"]))
            same(num(r["lo"]), x - 1.96 * se, "%s low end %s" % (name, r["index"]), 1e-13, 1e-3)
            same(num(r["hi"]), x + 1.96 * se, "%s high end %s" % (name, r["index"]), 1e-13, 1e-3)
            checked += 4
    print("%s: %d numbers of %d models as %s has them" % (csvf, checked, len(order), jsonf))


def cmd_unit(csvf, dumpf, unit, signal, a, b):
    """The unit figure's values and characters (a word model's tokens) the dump's."""
    rows = [r for r in csv.DictReader(open(csvf, newline=""))
            if int(a) <= int(r["step"]) <= int(b)]
    col = "token" if rows and "token" in rows[0] else "char"
    want = {}
    with open(dumpf, newline="") as f:
        for r in csv.DictReader(f):
            if int(r["unit"]) == int(unit):
                want[int(r["step"])] = (r[col], float(r[signal]))
    steps = [int(r["step"]) for r in rows]
    if steps != list(range(int(a), int(b) + 1)):
        fail("%s: steps %s..%s, not %s..%s" % (csvf, steps[0], steps[-1], a, b))
    for r in rows:
        ch, v = want[int(r["step"])]
        if r[col] != ch and not ch.startswith("\\x"):
            fail("step %s: the %s %r, the dump's %r" % (r["step"], col, r[col], ch))
        same(float(r["value"]), v, "step %s" % r["step"])
    print("%s: %d values and %s as the dump has them"
          % (csvf, len(rows), "tokens" if col == "token" else "characters"))


def cmd_steps(path, a, b):
    """The CSV's rows are the steps a..b, one each, each with a number."""
    rows = list(csv.DictReader(open(path, newline="")))
    steps = [int(r["step"]) for r in rows]
    if steps != list(range(int(a), int(b) + 1)) or any(r["value"] == "" for r in rows):
        fail("%s: %d rows, not one with a value for each step %s..%s" % (path, len(rows), a, b))
    print("%s: one row with its value for each of the %d steps %s..%s" % (path, len(rows), a, b))


def cmd_rows(whole, part, a, b):
    """The rows of CSV part are those of CSV whole at steps a..b."""
    w = [r for r in csv.reader(open(whole, newline=""))]
    p = [r for r in csv.reader(open(part, newline=""))]
    want = [w[0]] + [r for r in w[1:] if int(a) <= int(r[1]) <= int(b)]
    if p != want:
        fail("%s: %d rows, not the %d of %s at steps %s..%s" % (part, len(p) - 1, len(want) - 1,
                                                                whole, a, b))
    print("%s: the %d rows of %s at steps %s..%s" % (part, len(p) - 1, whole, a, b))


def boxes(d):
    """Each subpath's box of points (x0, y0, x1, y1) of a path's d (absolute commands)."""
    out = []
    for sub in re.split(r"(?=M)", d or ""):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", sub)]
        if len(nums) >= 2:
            xs, ys = nums[0::2], nums[1::2]
            out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


def cmd_clear(path):
    root, _, _ = parts(path)
    frames, marks = [], []
    for el in root.iter(SVG + "path"):
        st = style_of(el)
        if st.get("stroke") == "rgb(0%,0%,0%)" and float(st.get("stroke-width", "1")) == AXIS_WIDTH \
                and "Z" in (el.get("d") or ""):
            frames += boxes(el.get("d"))
        elif st.get("stroke", "none") == "none" and st.get("fill", "none") not in ("none", "rgb(100%,100%,100%)"):
            marks += boxes(el.get("d"))
    frames = [f for f in frames if f[2] - f[0] > 50 and f[3] - f[1] > 50]
    if not frames:
        fail("%s: no frame" % path)
    checked = 0
    for m in marks:
        cx, cy, size = (m[0] + m[2]) / 2, (m[1] + m[3]) / 2, max(m[2] - m[0], m[3] - m[1])
        if size > 20:
            continue  # not a marker (a filled area)
        for f in frames:
            if f[0] < cx < f[2] and f[1] < cy < f[3]:
                gap = min(m[0] - f[0], f[2] - m[2], m[1] - f[1], f[3] - m[3])
                if gap < size / 2:
                    fail("%s: a marker of %.1f at (%.1f, %.1f) stands %.1f from its frame"
                         % (path, size, cx, cy, gap))
                checked += 1
    if not checked:
        fail("%s: no marker inside a frame" % path)
    print("%s: %d markers inside %d frames, each clear of it by half its size or more"
          % (path, checked, len(frames)))


def main(a):
    cmds = {"svg": cmd_svg, "structure": lambda f, c, p, l: cmd_structure(f, int(c), int(p), int(l)),
            "same": cmd_same, "png": cmd_png, "pdf": cmd_pdf, "clear": cmd_clear,
            "perturbation": lambda c, j, rel=None: cmd_perturbation(c, j, float(rel) if rel else None),
            "halflives": cmd_halflives, "checkpoints": cmd_checkpoints,
            "lyapunov": cmd_lyapunov, "unit": cmd_unit, "rows": cmd_rows, "steps": cmd_steps,
            "summary": lambda f: print("\n".join(summary(f)))}
    if not a or a[0] not in cmds:
        fail("usage: see the comment at the top of tests/lib/figcheck.py")
    cmds[a[0]](*a[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
