#!/usr/bin/env python3
"""Every key's time on the screen as a user sees it (doc/speed.md, "The keys"): gatetui in
tmux (as the terminal tests drive it) on the sample LSTM and GRU over kjv-valid.txt, two
models open, at 120x40. For each key of a scripted sequence, from the moment tmux is told to
send it: the time to the first change of the screen (its first redraw) and the time until
the screen holds still with nothing computing ("computing", "waiting", "%" of a progress
bar gone, and the same for 0.3 s: its final values). Each key is sent REPS times (the
sequence again from the same state); the medians and the worst are printed, and the keys
whose first redraw took 100 ms or more are named. Not part of make check.

    tests/bench/bench_keys.py [REPS [MODEL MODEL TEXT]]   (from the top of a built tree)

KEYS="D derivative,Tab" sends and times only the keys whose names start so; GATETUI=PATH
runs that binary (another build, side by side).

Capturing the screen costs a few milliseconds; its median (the floor of every time here)
is printed first.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOCK = "benchkeys%d" % os.getpid()
BUSY = re.compile(r"computing|waiting for|\d%\]|\d% +Esc|Esc stops")

# (what, keys to send, keys that put the state back afterwards or None)
SEQUENCE = [
    ("→ step", ["Right"], None),
    ("← step", ["Left"], None),
    ("↓ unit", ["Down"], None),
    ("PgDn units", ["PageDown"], None),
    ("g 30000 Enter", ["g", "3", "0", "0", "0", "0", "Enter"], None),
    ("e (its prompt)", ["e"], None),
    ("x (the edit)", ["x"], None),
    ("+ horizon (the edit's)", ["+"], ["-"]),
    ("- horizon", ["-"], ["+"]),
    ("d difference", ["d"], ["d"]),
    ("A every edit", ["A"], ["A"]),
    ("b pin", ["b"], ["b"]),
    ("( ) ratio's k", ["("], [")"]),
    ("B carriers", ["B"], ["Escape"]),
    ("F figure", ["F"], None),
    ("x export", ["x"], None),
    ("E next edit", ["E"], None),
    ("u undo", ["u"], None),
    ("Ctrl-R redo", ["C-r"], None),
    ("u undo (again)", ["u"], None),
    ("> forget bias", [">"], ["Z"]),
    ("a ablate", ["a"], ["Z"]),
    ("} unit's forget bias", ["}"], ["Z"]),
    ("C carousel", ["C"], ["Z"]),
    ("m hypothesis", ["m", "[", "A", "-", "Z", "]", "Enter"], None),
    ("a ablate (a hypothesis)", ["a"], None),
    ("I effect", ["I"], ["Escape", "Z"]),
    ("m removed", ["m", "C-u", "Enter"], None),
    ("/ search", ["/", "l", "o", "r", "d", "Enter"], None),
    ("n next hit", ["n"], None),
    ("v select", ["v", "Right", "Right", "Right", "v"], ["Escape"]),
    ("p profile", ["p"], ["Escape"]),
    ("; signal", ["\\;"], None),
    ("P probe or components", ["P"], None),
    ("W session", ["W"], None),
    ("X html", ["X"], None),
    ("? help", ["?"], ["Escape"]),
    ("Tab (the other model)", ["Tab"], ["BTab"]),
    ("s sort", ["s"], None),
    ("D derivative", ["D"], ["Escape"]),
    ("U unit table", ["U"], ["Escape"]),
    ("r report", ["r"], ["Escape"]),
    ("c colour", ["c"], None),
    ("End", ["End"], ["Home"]),
]


def tm(*args):
    return subprocess.run(["tmux", "-L", SOCK] + list(args), capture_output=True,
                          text=True).stdout


def screen():
    return tm("capture-pane", "-p", "-t", "gt")


def settle(limit=600.0):
    """Until the screen holds still for 0.3 s with nothing computing; its time."""
    t0 = time.monotonic()
    last, since = None, time.monotonic()
    while time.monotonic() - t0 < limit:
        s = screen()
        now = time.monotonic()
        if s != last:
            last, since = s, now
        elif now - since >= 0.3 and not BUSY.search(s):
            return since - t0
        time.sleep(0.005)
    return float("nan")


def send(keys):
    for k in keys:
        tm("send-keys", "-t", "gt", k)


def timed(keys):
    """(first redraw, final values) in seconds, from the moment the keys are sent."""
    before = screen()
    t0 = time.monotonic()
    send(keys)
    first = float("nan")
    while time.monotonic() - t0 < 30: # a key that changes nothing on the screen: nan
        if screen() != before:
            first = time.monotonic() - t0
            break
        time.sleep(0.001)
    final = first + settle()
    return first, final


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    if len(sys.argv) > 4:
        models, text = sys.argv[2:4], sys.argv[4]
    else:
        s = os.path.join(TOP, "samples")
        models = [os.path.join(s, "kjv-lstm.bin"), os.path.join(s, "kjv-gru.bin")]
        text = os.path.join(s, "kjv-valid.txt")
    if not shutil.which("tmux"):
        sys.exit("bench_keys: tmux is needed")
    work = tempfile.mkdtemp()
    binary = os.environ.get("GATETUI") or os.path.join(TOP, "gatetui")
    only = [k for k in os.environ.get("KEYS", "").split(",") if k]
    cmd = "cd %s && %s %s %s; sleep 600" % (work, binary, " ".join(models), text)
    subprocess.run(["tmux", "-L", SOCK, "-f", "/dev/null", "new-session", "-d", "-s", "gt",
                    "-x", "120", "-y", "40", cmd], check=True)
    try:
        subprocess.run(["sh", "-c", ". %s/tests/bench/machine.sh && machine_line %s"
                        % (TOP, binary)])
        print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
        print("%s, %s: 120x40, %d repetitions" % (" and ".join(os.path.basename(m)
                                                             for m in models),
                                                 os.path.basename(text), reps))
        t0 = time.monotonic()
        while "step 0 of" not in screen():
            if time.monotonic() - t0 > 600:
                sys.exit("bench_keys: the screen did not come up: %s" % screen())
            time.sleep(0.01)
        settle()
        print("the screen up and every pass done: %.2f s" % (time.monotonic() - t0))
        caps = []
        for _ in range(50):
            c0 = time.monotonic()
            screen()
            caps.append(time.monotonic() - c0)
        print("one capture of the screen: %.1f ms (median of 50)" % (1000 * statistics.median(caps)))
        sequence = [k for k in SEQUENCE
                    if not only or any(k[0].startswith(o) for o in only)]
        times = {w: ([], []) for w, _, _ in sequence}
        for _ in range(reps):
            for what, keys, back in sequence:
                first, final = timed(keys)
                print("  %s: %.0f ms, %.0f ms" % (what, 1000 * first, 1000 * final),
                      file=sys.stderr, flush=True)
                times[what][0].append(first)
                times[what][1].append(final)
                if back:
                    send(back)
                    settle()
        print()
        print("%-24s %12s %12s %14s %14s" % ("key", "first, med", "first, worst", "final, med",
                                             "final, worst"))
        slow = []
        for what, _, _ in sequence:
            f, g = times[what]
            print("%-24s %9.0f ms %9.0f ms %11.0f ms %11.0f ms" % (
                what, 1000 * statistics.median(f), 1000 * max(f), 1000 * statistics.median(g),
                1000 * max(g)))
            if statistics.median(f) >= 0.1:
                slow.append(what)
        print()
        print("first redraw at 100 ms or more (median): %s" % (", ".join(slow) if slow else "none"))
    finally:
        tm("kill-server")
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
