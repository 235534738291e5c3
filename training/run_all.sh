#!/usr/bin/env bash
# End to end: mine commits and docstrings/comments -> features + rubric labels (packages/core, Node)
# -> train -> export -> parity fixture.
# Needs: the mirrors of training/repos.py fetched under $MIRROR (the library's `fetch`; mining reads
# each at its pinned revision, repos.PINNED), the Python dependencies of training/requirements.txt
# (Debian's python3-torch python3-onnx python3-numpy libopenblas0-pthread), Node 20, and `npm ci` done.
#   bash training/run_all.sh            (WORK=/work/ctxprune-train STEPS=1721 RANK_STEPS=601 SEED=7 FEATURES=1)
# Training runs a fixed number of steps (not minutes), so the same seed gives the same model on a
# busy machine; on this 2-core machine the two runs take about 13 + 5 minutes when it is idle.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${WORK:-/work/ctxprune-train}
MIRROR=${MIRROR:-/work/.mirror}
STEPS=${STEPS:-1721}
RANK_STEPS=${RANK_STEPS:-601}
SEED=${SEED:-7}
PY=/usr/bin/python3
mkdir -p "$WORK"
# The pinned Python dependencies (training/requirements.txt): another version may not reproduce the model.
$PY - <<'PYEOF'
import re, sys, importlib
want = dict(re.findall(r'^(\w+)==(\S+)', open('training/requirements.txt').read(), re.M))
got = {k: importlib.import_module(k).__version__ for k in want}
off = [f'{k} {got[k]} (pinned {v})' for k, v in want.items() if not got[k].startswith(v.rsplit('.', 1)[0])]
if off: print('warning: dependencies differ from training/requirements.txt: ' + ', '.join(off), file=sys.stderr)
PYEOF
npm run build -w @ctxprune/core
$PY training/mine_commits.py --mirror "$MIRROR" --out "$WORK" --per-repo 900
$PY training/mine_docs.py --mirror "$MIRROR" --out "$WORK"
$PY training/mine_docs.py --mirror "$MIRROR" --out "$WORK" --split val   # held-out check only
$PY training/make_val_cases.py --work "$WORK"
# FEATURES=2: word vectors learned without labels (co-occurrence counts -> PPMI + SVD -> WORK/words)
# feed feature version 2. The shipped model is version 1 (version 2 did not win on validation: MODEL_CARD.md).
FEATURES=${FEATURES:-1}
FV=(--feature-version "$FEATURES")
if [ "$FEATURES" -ge 2 ]; then
  node training/pretrain_words.mjs --work "$WORK"
  $PY training/pretrain_words.py --work "$WORK" --seed "$SEED"
  FV+=(--words "$WORK/words")
fi
rm -rf "$WORK/dataset"
for i in 0 1 2; do node training/build_dataset.mjs --work "$WORK" --shard $i/3 "${FV[@]}" & done
node training/build_dataset.mjs --work "$WORK" --input docs "${FV[@]}" &
wait
node training/build_dataset.mjs --fixture packages/core/test/features/fixtures "${FV[@]}"
OMP_NUM_THREADS=1 $PY training/train.py --work "$WORK" --steps "$STEPS" --seed "$SEED"
# Ranking fine-tune (adds a per-line logistic term on the fused margin); the shipped checkpoint.
OMP_NUM_THREADS=1 $PY training/train.py --work "$WORK" --steps "$RANK_STEPS" --seed $((SEED + 1)) \
    --init "$WORK/model/best.pt" --w-rank 1.0 --lr 1e-3 --eval-every 200 --out-name rank.pt
$PY training/export.py --work "$WORK" --checkpoint "$WORK/model/rank.pt" --out models/ctxprune-lamr.onnx \
    --parity packages/core/test/runtime/fixtures
npx vitest run packages/core/test/features packages/core/test/runtime
node packages/core/bin/ctxprune.js bench --cases "$WORK/val-cases.jsonl" --ratio 4 --scorer neural
node packages/core/bin/ctxprune.js bench --cases "$WORK/docs-val-cases.jsonl" --ratio 4 --scorer neural
