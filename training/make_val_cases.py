#!/usr/bin/python3
"""Validation cases in the benchmark's format from the held-out repositories (repos.py, split 'val'),
so model selection can run the real pipeline: `ctxprune bench --cases DIR/val-cases.jsonl`.

  /usr/bin/python3 training/make_val_cases.py --work DIR [--per-repo 60]
"""
import argparse
import json
import os
import random

from paths import default_work
from repos import REPOS

ap = argparse.ArgumentParser()
ap.add_argument('--work', default=default_work(), help='work folder (default: $CTXPRUNE_TRAIN_DIR, else data/train)')
ap.add_argument('--per-repo', type=int, default=60)
args = ap.parse_args()
rng = random.Random(11)
out = open(os.path.join(args.work, 'val-cases.jsonl'), 'w')
# Files whose structure analysis hung in the data builder (build_dataset.mjs logs them) would hang the bench too.
hung_file = os.path.join(args.work, 'hung_paths.txt')
hung = set(open(hung_file).read().split()) if os.path.exists(hung_file) else set()
total = 0
for repo, split in REPOS:
    if split != 'val':
        continue
    rows = [json.loads(l) for l in open(os.path.join(args.work, 'commits', repo.replace('/', '+') + '.jsonl'))]
    rows = [r for r in rows if r['n_lines'] <= 3000 and f"{repo}:{r['path']}" not in hung]
    rng.shuffle(rows)
    for r in rows[:args.per_repo]:
        out.write(json.dumps({'id': f"{repo}::{r['commit'][:10]}::{r['path']}", 'source': 'commit_history', 'repo': repo,
                              'commit': r['commit'], 'path': r['path'], 'language': r['language'], 'query': r['query'],
                              'gold_lines': r['gold_lines'], 'n_lines': r['n_lines'], 'file_text': r['file_text']}) + '\n')
        total += 1
print(f'{total} validation cases')
