#!/bin/sh
# The perturbation panel with every edit at once (the screen's A; a session's
# "all_edits"), on the shipped samples at full length: step 1,200's space made an 'x' and
# step 1,210's 'e' a 'y', against the text as loaded from step 1,200. The four curves follow
# both edits (doc/measures.md, "Perturbation"): the half-lives c, L, F, h and the ratio
# c/F (h/F for a GRU) are those of the float64 run of tests/ref/make_all_edits_fixture.py
# (tests/fixtures/export/all_edits.json). Before, L and F followed the first edit alone: the
# LSTM's L 17.2 and ratio 25.15 where both edits give 23.5 and 14.77.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
. "$src/tests/lib/tap.sh"
bin="$bld/gatetui"
need "$bin"
fix="$src/tests/fixtures/export/all_edits.json"
text="$(cd "$src/samples" && pwd)/kjv-valid.txt"
py=$(command -v python3) || bail "python3 is missing (build.sh installs it)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
size() { wc -c <"$1" | tr -d ' '; }
sha() { sha256sum "$1" | cut -d' ' -f1; }

for name in kjv-lstm kjv-gru kjv-rnn; do
    model="$(cd "$src/samples" && pwd)/$name.bin"
    for all in 1 0; do
        cat >"$work/s.json" <<EOF
{"gatetui_session": 1,
 "models": [{"path": "$model", "size": $(size "$model"), "sha256": "$(sha "$model")"}],
 "text": {"path": "$text", "size": $(size "$text"), "sha256": "$(sha "$text")"},
 "screen": {"step": 1212, "perturbation": {"all_edits": $all},
            "edits": [{"step": 1200, "offset": 1200, "before": " ", "after": "x"},
                      {"step": 1210, "offset": 1210, "before": "e", "after": "y"}]}}
EOF
        out="$work/$name-$all.txt"
        if ! "$bin" --export "$out" --size 120x40 --session "$work/s.json" 2>"$work/err"; then
            notok "$name: exit status $? ($(head -1 "$work/err"))"
            continue
        fi
        if [ $all = 1 ]; then
            if grep -q "all 2 edits from step 1,200" "$out" &&
                said=$("$py" "$src/tests/lib/panelcmp.py" "$out" "$fix" "$name" 1200); then
                ok "$name, both edits at once: $said"
            else
                notok "$name, both edits at once: ${said:-the panel does not name both edits}"
                grep -A12 "perturbation ─" "$out" | sed 's/.*[│┬]/# /'
            fi
        else # the last edit alone: a panel that does not hold the fixture's numbers
            if grep -q "step 1,210: 'e' → 'y'" "$out" &&
                ! "$py" "$src/tests/lib/panelcmp.py" "$out" "$fix" "$name" 1200 >/dev/null; then
                ok "$name, the last edit alone: another panel, not held to both edits' numbers"
            else
                notok "$name, the last edit alone: the panel agrees with both edits' numbers"
            fi
        fi
    done
done
echo "1..$n"
