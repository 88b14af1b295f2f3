#!/bin/sh
# torch.save files as users have them (tests/fixtures/torch, made by
# tests/ref/make_torch_fixtures.py): every value of the dump, the readout's probabilities
# (steps 0..119) and its mean loss over the whole text against PyTorch's within
# 1e-5 x max(1, |PyTorch's|); the loss warning
# when the vocabulary's order is wrong and not otherwise; --embedding; and every file in
# bad/ (hostile pickles, damaged archives, files of other kinds) refused with exit status
# 2 and one line, the hostile ones without running anything. Then the same for the files
# of tests/fixtures/files (tests/ref/make_files_fixtures.py, one line of its MANIFEST each:
# a state_dict with other entries, a float model with a quantized readout, ...), against
# float64 references of PyTorch or numpy; what gatetui says of each file of its NOTES; and
# each file of its EXPECTED refused, never saying "no tensors".
fix=$(cd "$top_srcdir/tests/fixtures/torch" && pwd)
bin=$(cd "$top_builddir" && pwd)/gatetui
cmp="$top_builddir/tests/lib/dumpcmp"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() {
    n=$((n + 1))
    echo "not ok $n - $*"
    sed 's/^/# /' "$out/err" "$out/diff" 2>/dev/null | head -20
}

# the loss in the report's JSON against NAME.loss ("nats count")
loss_of() { # JSON file -> "nats count"
    tr -d ' \n' <"$1" | sed -n 's/.*"loss":{"nats":\([^,]*\),"bits":[^,]*,"count":\([0-9]*\)}.*/\1 \2/p'
}
same_loss() { # got want
    echo "$1 $2" | awk '{ d = $1 - $3; if (d < 0) d = -d; m = $3 < 0 ? -$3 : $3; if (m < 1) m = 1;
                          exit !(d <= 1e-5 * m && $2 == $4) }'
}

# one case: the dump, the probabilities and the loss against the reference's
check_case() { # folder model-file text name options...
    dir=$1 model=$2 text=$3 name=$4
    shift 4
    : >"$out/diff"
    if "$bin" --dump --to 119 "$@" "$dir/$model" "$dir/$text" >"$out/$name.csv" 2>"$out/err" &&
        "$cmp" "$dir/$name.csv" "$out/$name.csv" 1e-5 >"$out/diff" 2>&1; then
        ok "$model: every value within 1e-5 of the reference"
    else
        notok "$model: dump differs from the reference"
    fi
    [ -f "$dir/$name.probs.csv" ] || return 0
    if "$bin" --dump --probs --to 119 "$@" "$dir/$model" "$dir/$text" >"$out/$name.p.csv" 2>"$out/err" &&
        "$cmp" "$dir/$name.probs.csv" "$out/$name.p.csv" 1e-5 1e-6 >"$out/diff" 2>&1; then
        ok "$model: next-character probabilities within 1e-5 (the readout on the top layer)"
    else
        notok "$model: probabilities differ from the reference"
    fi
    "$bin" --report --json "$@" "$dir/$model" "$dir/$text" >"$out/$name.json" 2>"$out/err"
    got=$(loss_of "$out/$name.json")
    want=$(cat "$dir/$name.loss")
    if [ -n "$got" ] && same_loss "$got" "$want"; then
        ok "$model: the report's loss $got (reference: $want)"
    else
        echo "report loss: \"$got\", the reference's: $want" >"$out/diff"
        notok "$model: the report's loss differs from the reference's"
    fi
}

while read -r name opts; do
    case "$name" in ''|'#'*) continue ;; esac
    opts=$(printf '%s' "$opts" | sed "s|tests/fixtures/torch/|$fix/|g")
    # shellcheck disable=SC2086
    check_case "$fix" "$name.pt" "$name.txt" "$name" $opts
done <"$fix/MANIFEST"

# the files of tests/fixtures/files (tests/ref/make_files_fixtures.py): state_dicts with
# other entries, a quantized readout, TorchScript, min-char-rnn (.pt, .npz), AWD-LSTM
files=$(cd "$top_srcdir/tests/fixtures/files" && pwd)
while read -r model text opts; do
    case "$model" in ''|'#'*) continue ;; esac
    opts=$(printf '%s' "$opts" | sed "s|tests/fixtures/files/|$files/|g")
    # shellcheck disable=SC2086
    check_case "$files" "$model" "$text" "${text%.txt}" $opts
done <"$files/MANIFEST"
# what gatetui says of a file it reads only in part
while IFS="$(printf '\t')" read -r model word; do
    case "$model" in ''|'#'*) continue ;; esac
    : >"$out/diff"
    "$bin" --dump --to 0 "$files/$model" "$files/${model%.*}.txt" >/dev/null 2>"$out/err"
    st=$?
    if [ $st -eq 0 ] && grep -qF -- "$word" "$out/err"; then
        ok "$model: said: $(cat "$out/err")"
    else
        notok "$model: status $st, wanted \"$word\" on standard error"
    fi
done <"$files/NOTES"

# the loss warning: none for trained models in their own order, one for the sorted order
for name in ckpt_optim shuffled_vocab; do
    if "$bin" --dump "$fix/$name.pt" "$fix/$name.txt" >/dev/null 2>"$out/err" &&
        ! grep -q warning "$out/err"; then
        ok "$name: trained, vocabulary from the file: no loss warning"
    else
        notok "$name: a loss warning for a trained model"
    fi
done
"$bin" --dump --vocab-from "$fix/train.txt" "$fix/shuffled_vocab.pt" "$fix/shuffled_vocab.txt" \
    >/dev/null 2>"$out/err"
"$bin" --report --vocab-from "$fix/train.txt" "$fix/shuffled_vocab.pt" "$fix/shuffled_vocab.txt" \
    >"$out/report" 2>>"$out/err"
if grep -q "warning: .*no better than a uniform guess.*vocabulary's order" "$out/err" &&
    grep -q "^warning: .*vocabulary's order" "$out/report"; then
    ok "shuffled_vocab with the sorted order (--vocab-from): the loss warning, on standard error and in the report"
else
    notok "shuffled_vocab with the sorted order: no loss warning"
fi
LC_ALL=C.UTF-8 "$bin" --export - --step 20 --size 160x40 "$fix/ckpt_optim.pt" "$fix/ckpt_optim.txt" \
    >"$out/frame" 2>"$out/err"
bits=$(awk '{ printf "%.2f", $1 / log(2) }' "$fix/ckpt_optim.loss")
if head -1 "$out/frame" | grep -q "loss $bits bits/char"; then
    ok "the header shows the loss in bits per character ($bits)"
else
    head -2 "$out/frame" >"$out/diff"
    notok "the header has no loss"
fi

# refusals that name what to do
refused() { # description word args...
    desc=$1 word=$2
    shift 2
    "$bin" "$@" >/dev/null 2>"$out/err"
    st=$?
    if [ $st -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] && grep -qF -- "$word" "$out/err"; then
        ok "$desc: exit 2, one line: $(cat "$out/err")"
    else
        notok "$desc: status $st, wanted \"$word\""
    fi
}
refused "two tensors fit the embedding" "--embedding NAME" --dump "$fix/emb_choose.pt" "$fix/emb_choose.txt"
refused "--embedding names no tensor" "no tensor of that name" --dump --embedding nope "$fix/emb_choose.pt" "$fix/emb_choose.txt"
refused "a state_dict without a vocabulary" "looked" --dump "$fix/sd_zip.pt" "$fix/sd_zip.txt"
# one byte of a tensor changed: the entry's CRC-32 no longer holds; refused, naming it
entry=$(python3 - "$fix/ckpt_optim.pt" "$out/crc.pt" <<'EOF'
import sys, zipfile
src, dst = sys.argv[1:3]
b = bytearray(open(src, "rb").read())
info = max(zipfile.ZipFile(src).infolist(), key=lambda i: i.file_size)
at = info.header_offset
data = at + 30 + int.from_bytes(b[at + 26:at + 28], "little") + int.from_bytes(b[at + 28:at + 30], "little")
b[data + info.file_size // 2] ^= 0x40
open(dst, "wb").write(b)
print(info.filename)
EOF
)
refused "a byte of $entry changed" "zip entry $entry: its" --dump "$out/crc.pt" "$fix/ckpt_optim.txt"
if "$bin" --dump --to 5 "$fix/ckpt_optim.pt" "$fix/ckpt_optim.txt" >/dev/null 2>&1; then
    ok "the same file unchanged reads"
else
    notok "ckpt_optim.pt unchanged does not read"
fi
# every CRC-32 written as 0 (torch.serialization.set_crc32_options(False)): none to check
python3 - "$fix/ckpt_optim.pt" "$out/nocrc.pt" <<'EOF'
import sys
src, dst = sys.argv[1:3]
b = bytearray(open(src, "rb").read())
for sig, at in ((b"PK\x03\x04", 14), (b"PK\x01\x02", 16)):
    i = b.find(sig)
    while i >= 0:
        b[i + at:i + at + 4] = bytes(4)
        i = b.find(sig, i + 4)
open(dst, "wb").write(b)
EOF
"$bin" --dump --to 5 "$fix/ckpt_optim.pt" "$fix/ckpt_optim.txt" >"$out/crc_a" 2>/dev/null
if "$bin" --dump --to 5 "$out/nocrc.pt" "$fix/ckpt_optim.txt" >"$out/crc_b" 2>"$out/err" &&
    cmp -s "$out/crc_a" "$out/crc_b"; then
    ok "every CRC-32 written as 0 (saved with CRC-32 off): read, the same dump"
else
    notok "a file saved with CRC-32 off: $(head -1 "$out/err")"
fi

# files to refuse; the hostile ones run in an empty folder that must stay empty
mkdir "$out/cwd"
while IFS="$(printf '\t')" read -r file want; do
    case "$file" in ''|'#'*) continue ;; esac
    : >"$out/diff"
    (cd "$out/cwd" && "$bin" --dump "$fix/bad/$file" "$fix/sd_zip.txt") >/dev/null 2>"$out/err"
    st=$?
    msg=$(cat "$out/err")
    if [ "$st" -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
        printf '%s' "$msg" | grep -qiF -- "$want" && printf '%s' "$msg" | grep -qF -- "$file" &&
        [ -z "$(ls -A "$out/cwd")" ]; then
        ok "bad/$file: refused: $msg"
    else
        notok "bad/$file: status $st, wanted \"$want\"; the folder holds: $(ls -A "$out/cwd")"
    fi
done <"$fix/bad/EXPECTED"
while IFS="$(printf '\t')" read -r file want; do
    case "$file" in ''|'#'*) continue ;; esac
    "$bin" --dump "$files/$file" "$fix/sd_zip.txt" >/dev/null 2>"$out/err"
    st=$?
    msg=$(cat "$out/err")
    if [ "$st" -eq 2 ] && [ "$(wc -l <"$out/err")" -eq 1 ] &&
        printf '%s' "$msg" | grep -qF -- "$want" && ! printf '%s' "$msg" | grep -q "no tensors"; then
        ok "$file: refused: $msg"
    else
        notok "$file: status $st, wanted \"$want\": $msg"
    fi
done <"$files/EXPECTED"
echo "1..$n"
