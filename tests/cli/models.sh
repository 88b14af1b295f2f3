#!/bin/sh
# Several models on one text (doc/usage.md, "Several models"), on the report fixtures and
# their copies with the vocabulary in another order (tests/ref/make_models_fixtures.py):
# a model whose vocabulary is permuted computes the same function, so its report matches
# the original's float64 reference; with several models --units and --jacobian print each
# model's own output, one column per model or as {"models": [...]} in JSON (importance and
# the sweep too); --report prints one table that compares them, every cell the JSON's value,
# and with --full each model's own report after it (with interventions too);
# vocabularies that differ are refused, naming the characters; --dump takes one model (--model I
# picks it: tests/cli/names.sh); and
# the memory taken grows by each model's weights, not by a copy of the text.
src="${top_srcdir:-.}"
bld="${top_builddir:-.}"
bin="$bld/gatetui"
rep="$src/tests/fixtures/report"
fix="$src/tests/fixtures/models"
. "$src/tests/lib/tap.sh"
need "$bin" "$bld/tests/lib/reportcmp" "$bld/tests/lib/maxrss"
# checkf STATUS DESCRIPTION FILE...: check, with the files as comments on failure
checkf() {
    _st=$1 _what=$2
    shift 2
    check "$_st" "$_what"
    [ "$_st" -eq 0 ] || cat "$@" 2>/dev/null | head -20 | sed 's/^/# /'
}
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
text="$rep/text.txt"
A="$rep/lstm1.safetensors" P="$fix/lstm1_perm.safetensors" G="$rep/gru1.safetensors"
Q="$fix/gru1_perm.safetensors" R="$rep/rnn1.safetensors"

# the permuted models against the originals' references (the same options as the MANIFEST)
while read -r name model _ opts; do
    case "$name" in lstm1_w6|lstm2_l0|lstm2_l1|gru1_w4|gru2_l1) ;; *) continue ;; esac
    # shellcheck disable=SC2086
    "$bin" --report --json $opts "$fix/${model}_perm.safetensors" "$text" >"$out/p.json" 2>"$out/err" &&
        "$bld/tests/lib/reportcmp" "$rep/$name.json" "$out/p.json" >"$out/diff" 2>&1
    checkf $? "$name: the model with its vocabulary permuted matches the original's reference" \
        "$out/err" "$out/diff"
done <"$rep/MANIFEST"

# columns WIDTHS...: splits standard input's lines into columns of those widths (3 spaces
# between) into $out/col.1, col.2, ..., trailing spaces and blank lines left out
columns() {
    awk -v out="$out" -v widths="$*" '
        BEGIN { n = split(widths, w, " ") }
        { at = 1
          for (k = 1; k <= n; k++) {
              s = substr($0, at, w[k]); sub(/ +$/, "", s)
              if (s != "") print s > (out "/col." k)
              at += w[k] + 3 } }'
}
# same_json_as_single DESCRIPTION OPTIONS -- MODELS: the JSON of the models together is
# {"models": [...]}, each entry that model's JSON as it prints it alone
same_json_as_single() {
    what=$1 opts=$2
    shift 3
    k=0
    {
        printf '{"models": [\n'
        for m in "$@"; do
            k=$((k + 1))
            [ $k -gt 1 ] && printf ',\n'
            # shellcheck disable=SC2086
            "$bin" $opts --json "$m" "$text" 2>/dev/null | awk 'NR > 1 { print prev } { prev = $0 } END { printf "%s", prev }'
        done
        # then the models' names in the same order (each file's name: the models here have
        # names of their own)
        printf '\n],\n"names": ['
        k=0
        for m in "$@"; do
            k=$((k + 1))
            [ $k -gt 1 ] && printf ', '
            printf '"%s"' "$(basename "$m")"
        done
        printf ']}\n'
    } >"$out/want.json"
    # shellcheck disable=SC2086
    "$bin" $opts --json "$@" "$text" >"$out/got.json" 2>"$out/err" &&
        cmp -s "$out/want.json" "$out/got.json"
    checkf $? "$what --json: {\"models\": [...], \"names\"}, each entry the model's own JSON, then their names" "$out/err"
}
# same_as_single DESCRIPTION OPTIONS -- MODELS: the text output of the models together is
# each model's own output side by side, each column headed by its model's name (the file's
# name: the models here have names of their own), and the JSON is {"models": [each one's
# JSON]}
same_as_single() {
    what=$1 opts=$2
    shift 3
    widths= k=0 bad=
    rm -f "$out"/col.* "$out"/single.*
    for m in "$@"; do
        k=$((k + 1))
        # shellcheck disable=SC2086
        "$bin" $opts "$m" "$text" >"$out/single.$k" 2>/dev/null || bad="$bad single run $k failed;"
        widths="$widths $(awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$out/single.$k")"
    done
    # shellcheck disable=SC2086
    "$bin" $opts "$@" "$text" >"$out/multi" 2>"$out/err" || bad="$bad the run of all failed;"
    # shellcheck disable=SC2086
    columns $widths <"$out/multi"
    k=0
    for m in "$@"; do
        k=$((k + 1))
        { basename "$m"; sed 's/ *$//' "$out/single.$k" | grep -v '^$'; } | cmp -s - "$out/col.$k" ||
            bad="$bad column $k differs from $(basename "$m")'s name and own output;"
    done
    [ "$k" -gt 1 ] && [ -s "$out/col.$k" ] || bad="$bad no column $k;"
    checkf "$([ -z "$bad" ]; echo $?)" "$what: one column per model, each its name and the model's own output" "$out/err"
    [ -n "$bad" ] && echo "# $bad"
    same_json_as_single "$what" "$opts" -- "$@"
}

# full_after_table DESCRIPTION OPTIONS -- MODELS: --report --full prints the table that
# compares the models (a heading, a blank line, its rows), then each model's own report as
# it prints it alone, after a blank line, in the order given; the JSON as above
full_after_table() {
    what=$1 opts=$2
    shift 3
    : >"$out/want"
    for m in "$@"; do
        printf '\n' >>"$out/want"
        # shellcheck disable=SC2086
        "$bin" $opts "$m" "$text" >>"$out/want" 2>/dev/null
    done
    # shellcheck disable=SC2086
    "$bin" $opts --full "$@" "$text" >"$out/multi" 2>"$out/err" &&
        sed 1,"$table_lines"d "$out/multi" | cmp -s - "$out/want"
    checkf $? "$what --full: the table, then each model's own report" "$out/err" "$out/multi"
    # shellcheck disable=SC2086
    "$bin" $opts "$@" "$text" >"$out/table" 2>"$out/err" &&
        [ "$(wc -l <"$out/table")" -eq "$table_lines" ] && head -n "$table_lines" "$out/multi" | cmp -s - "$out/table"
    checkf $? "$what: the table alone without --full ($table_lines lines)" "$out/err" "$out/table"
    same_json_as_single "$what" "$opts" -- "$@"
}
# table_is_json DESCRIPTION OPTIONS -- MODELS: every cell of the table equals the value of
# the JSON of the same run, as the table prints it (tests/ref/compare_cells.py)
table_is_json() {
    what=$1 opts=$2
    shift 3
    # shellcheck disable=SC2086
    "$bin" $opts "$@" "$text" >"$out/t.txt" 2>"$out/err" &&
        "$bin" $opts --json "$@" "$text" >"$out/t.json" 2>>"$out/err" &&
        python3 "$src/tests/ref/compare_cells.py" "$out/t.txt" "$out/t.json" "$@" >"$out/cells" 2>&1
    checkf $? "$what: every cell of the table is the JSON's value as printed" "$out/err" "$out/cells"
}
table_lines=14 # the heading, a blank line, eleven rows, the intervals' legend
full_after_table "--report" "--report --windows 6 --window-len 48 --horizon 20" -- "$A" "$P" "$G"
full_after_table "--report of two GRUs" "--report --windows 4 --window-len 50" -- "$Q" "$G"
table_is_json "--report of an LSTM, its copy, a GRU" "--report --windows 6 --window-len 48 --horizon 20" -- "$A" "$P" "$G"
table_is_json "--report of two GRUs" "--report --windows 4 --window-len 50" -- "$Q" "$G"
table_is_json "--report past the horizon" "--report --windows 3 --window-len 40 --horizon 2" -- "$A" "$G"
# the same characters, one model with two special tokens (<pad>, <unk>) besides them
S="$fix/lstm1_specials.safetensors"
full_after_table "--report, a model with special tokens beside one without" "--report --windows 4 --window-len 48" -- "$S" "$A"
same_as_single "--units, a model without special tokens beside one with" "--units [aeiou]" -- "$A" "$S"
same_as_single "--units" "--units [aeiou]" -- "$A" "$G" "$P"
same_as_single "--jacobian" "--jacobian --step 60 --lag 8 --unit 3" -- "$G" "$A"
full_after_table "--report with interventions" "--report --windows 4 --window-len 48 --forget-bias 1 --ablate 0:3" -- "$A" "$G"
same_as_single "--importance" "--importance --windows 2 --window-len 48" -- "$A" "$P" "$G"
# a plain RNN beside an LSTM and a GRU, one column or entry each
full_after_table "--report of an RNN, a GRU and an LSTM" \
    "--report --windows 6 --window-len 48 --horizon 20" -- "$R" "$G" "$A"
table_is_json "--report of an RNN, a GRU and an LSTM" \
    "--report --windows 6 --window-len 48 --horizon 20" -- "$R" "$G" "$A"
same_as_single "--units of an RNN beside others" "--units [aeiou]" -- "$G" "$R" "$A"
same_as_single "--jacobian of an RNN beside an LSTM" "--jacobian --step 60 --lag 8 --unit 3" -- "$R" "$A"
same_as_single "--importance of an RNN beside a GRU" "--importance --windows 2 --window-len 48" -- "$G" "$R"
# the sweep: its JSON only (its text has t½, which awk's columns would cut, as --profile's
# contexts)
same_json_as_single "--report --sweep-forget-bias" \
    "--report --windows 2 --window-len 48 --sweep-forget-bias 0:1:1" -- "$G" "$A"
# (--profile's contexts have characters of several bytes, which awk's columns would cut)

# vocabularies that differ: one line naming the characters each has that the other lacks
"$bin" --report "$A" "$fix/lstm1_other.safetensors" "$text" >"$out/o" 2>"$out/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$out/o" ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
    grep -q "the vocabularies differ: only the first has ',', 'w'; only .*lstm1_other.safetensors has ';', 'x'" "$out/err"
checkf $? "different vocabularies: exit 2 (got $rc), one line naming ',' 'w' against ';' 'x'" "$out/err"
"$bin" "$G" "$fix/lstm1_other.safetensors" "$text" </dev/null >/dev/null 2>"$out/err"
rc=$?
[ $rc -eq 2 ] && grep -q "vocabularies differ" "$out/err"
checkf $? "different vocabularies refused before the screen starts (exit $rc)" "$out/err"
"$bin" --report --ablate 0:22 "$A" "$G" "$text" >"$out/o" 2>"$out/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$out/o" ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
    grep -q "gru1.safetensors: --ablate: unit 22: layer 0 has 20 units" "$out/err"
checkf $? "an intervention one model cannot take: exit 2 (got $rc), the model named" "$out/err"
"$bin" --dump "$A" "$P" "$text" >"$out/o" 2>"$out/err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$out/o" ] && grep -q "takes one MODEL: --model I picks one of the 2 given" "$out/err"
checkf $? "--dump with two models: exit 2 (got $rc)" "$out/err"

# the samples: the checkpoints (F16) beside the trained LSTM and the GRU, one column each
S="$src/samples"
if [ -f "$S/kjv-lstm-0.bin" ] && [ -f "$S/kjv-gru.bin" ]; then
    "$bin" --report --windows 1 --window-len 32 --horizon 8 "$S"/kjv-lstm-0.bin "$S"/kjv-lstm-100.bin \
        "$S"/kjv-lstm-300.bin "$S"/kjv-lstm-800.bin "$S"/kjv-lstm-2000.bin "$S"/kjv-lstm.bin \
        "$S"/kjv-lstm-2650.bin "$S"/kjv-gru.bin "$S"/kjv-valid.txt >"$out/s" 2>"$out/err" &&
        [ "$(grep '^model ' "$out/s" | grep -o 'kjv-[a-z0-9-]*\.bin' | wc -l)" -eq 8 ] &&
        [ "$(grep '^cell, units ' "$out/s" | grep -o 'LSTM 256' | wc -l)" -eq 7 ] &&
        grep -q '^cell, units .*GRU 300$' "$out/s"
    checkf $? "the samples: seven checkpoints of the LSTM and the GRU, one column each" "$out/err" "$out/s"
else
    bail "the sample models are missing"
fi

# memory: a text of 7 MB (14 MB of tokens); each further model must add no more than its
# weights (20 KB here) and 1 MB of slack, where a copy of the tokens would add 14 MB
awk -v f="$text" 'BEGIN { while ((getline l < f) > 0) s = s l "\n"; for (i = 0; i < 2000; i++) printf "%s", s }' >"$out/big.txt"
steps=$(wc -c <"$out/big.txt")
for mode in report export; do
    if ldd "$bin" 2>/dev/null | grep -q libasan; then # its allocator's quarantine and shadow
        skip "$mode: memory under AddressSanitizer is its allocator's, not the program's"
        continue
    fi
    case $mode in
    report) o="--report" ;;
    export) o="--export - --step 5 --edit 3:x" ;;
    esac
    # shellcheck disable=SC2086
    r1=$("$bld/tests/lib/maxrss" "$bin" $o "$A" "$out/big.txt" 2>/dev/null)
    # shellcheck disable=SC2086
    r3=$("$bld/tests/lib/maxrss" "$bin" $o "$A" "$P" "$Q" "$out/big.txt" 2>/dev/null)
    w=$(( ($(wc -c <"$P") + $(wc -c <"$Q")) / 1024 ))
    grow=$((r3 - r1))
    [ -n "$r1" ] && [ -n "$r3" ] && [ "$grow" -le $((w + 2 * 1024)) ]
    check $? "$mode of a $steps-character text: three models take $grow KB more than one (weights $w KB, a copy of the tokens $((2 * steps / 1024)) KB)"
done
echo "1..$n"
