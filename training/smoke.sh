#!/usr/bin/env bash
# The training pipeline end to end in about a minute, on the committed feature fixture instead of
# mined repositories: build_dataset.mjs -> train.py (a few steps) -> export.py -> the shipped model's
# parity test (packages/core/test/runtime/parity.test.ts) pointed at the exported graph. It proves the
# pipeline runs and that what it exports honours the runtime's contract; the model it trains is noise.
#   bash training/smoke.sh            (needs training/requirements.txt's Python packages and `npm run build`)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-/usr/bin/python3}
if ! $PY -c 'import torch, onnx, numpy' 2>/dev/null; then
  echo "training smoke: $PY lacks torch/onnx/numpy (training/requirements.txt; .ci/run installs Debian's)" >&2
  exit 1
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
FIX=packages/core/test/features/fixtures
# A handful of examples from the fixture: its own gold lines and a few shifted windows of them.
mkdir -p "$WORK/commits"
$PY - "$FIX/case.json" "$WORK/commits/smoke+fixture.jsonl" <<'PYEOF'
import json, sys
case = json.load(open(sys.argv[1]))
n = case['source'].count('\n') + 1
with open(sys.argv[2], 'w') as f:
    for k, shift in enumerate((0, -6, 6, -12, 12, -20, 20, 3)):
        gold = [g + shift for g in case['gold_lines'] if 1 <= g + shift <= n]
        f.write(json.dumps({'repo': 'smoke/fixture', 'commit': f'{k:040d}', 'parent': f'{k + 1:040d}', 'path': 'client.py',
                            'language': case['language'], 'query': case['query'], 'gold_lines': gold,
                            'file_text': case['source']}) + '\n')
PYEOF
node training/build_dataset.mjs --work "$WORK" --neg 0.3
OMP_NUM_THREADS=1 $PY training/train.py --work "$WORK" --steps 6 --batch 4 --eval-every 6 --smoke --seed 7
$PY training/export.py --work "$WORK" --checkpoint "$WORK/model/best.pt" --out "$WORK/smoke.onnx" --parity "$WORK/parity" \
    --features-fixture "$FIX"
CTXPRUNE_PARITY_MODEL="$WORK/smoke.onnx" CTXPRUNE_PARITY_REFERENCE="$WORK/parity/torch-outputs.json" \
    npx vitest run packages/core/test/runtime/parity.test.ts
# recover_checkpoint.py: the shipped graph and the one just exported give back checkpoints that
# reproduce their own reference outputs; recovered against another model's reference, it fails.
$PY training/recover_checkpoint.py --out "$WORK/shipped.pt"
$PY training/recover_checkpoint.py --model "$WORK/smoke.onnx" --parity "$WORK/parity" --out "$WORK/recovered.pt"
if $PY training/recover_checkpoint.py --model "$WORK/smoke.onnx" --out "$WORK/wrong.pt" 2>/dev/null; then
  echo "recover_checkpoint.py: a model passed another model's parity reference" >&2; exit 1
fi
# The token-reading experiment (build_dataset.mjs --tokens, train.py's TokenInteraction; not exported,
# MODEL_CARD.md): its dataset and a few training steps, so that the recorded commands keep running.
TOK="$WORK/tokens"
mkdir -p "$TOK" && cp -r "$WORK/commits" "$TOK/"
node training/build_dataset.mjs --work "$TOK" --neg 0.3 --tokens
OMP_NUM_THREADS=1 $PY training/train.py --work "$TOK" --steps 3 --batch 4 --eval-every 3 --smoke --seed 7 --token-dim 16
# get_mirrors.py: clones a repository as a bare mirror, finds its pin there on a second run, and
# fails (exit 1) on a pin the repository does not hold. A local repository stands in for GitHub.
MIR="$WORK/mirrors"
git init -q "$MIR/src/acme+widget"
git -C "$MIR/src/acme+widget" -c user.name=smoke -c user.email=smoke@example.invalid commit -q --allow-empty -m one
PIN=$(git -C "$MIR/src/acme+widget" rev-parse HEAD)
get() { $PY training/get_mirrors.py --mirror "$MIR/out" --url "file://$MIR/src/{dir}" --repo "acme/widget@$1"; }
# Output captured before grep reads it: `get | grep -q` closes the pipe at the first match, and
# the script's summary line after it then dies of a broken pipe (pipefail: a flaky failure).
out=$(get "$PIN"); grep -q '^cloned .*acme/widget' <<<"$out"
git --git-dir "$MIR/out/acme+widget/repo" cat-file -e "$PIN^{commit}"
out=$(get "$PIN"); grep -q '^present .*acme/widget' <<<"$out"
if get 0123456789012345678901234567890123456789 >/dev/null; then echo "get_mirrors.py: a missing pin passed" >&2; exit 1; fi
echo "training smoke: get_mirrors.py ok"
