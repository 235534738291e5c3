#!/usr/bin/python3
"""Write the training manifests (identifiers only, never file texts) from a mined WORK directory:
training/manifest.tsv from WORK/commits (mine_commits.py) and training/manifest-docs.tsv from
WORK/docs (mine_docs.py, train split). Rows in the order the dataset build reads them (files
sorted by name, each file's rows in order), so a rerun of the miners must give the same files.

Usage: /usr/bin/python3 training/write_manifest.py --work DIR [--check]
  --check: compare with the committed manifests instead of writing them (exit 1 when they differ).
"""
import argparse
import json
import os
import sys

from repos import REPOS

HERE = os.path.dirname(os.path.abspath(__file__))
SPLIT = dict(REPOS)

COMMITS_HEAD = [
    '# The commit examples behind the training data of training/repos.py: repository, commit, pre-image path, split.',
    '# Identifiers only: the texts are re-derived from the repositories by training/mine_commits.py.',
    'repo\tcommit\tpath\tsplit',
]
DOCS_HEAD = [
    '# The description -> code examples of the training data (training/mine_docs.py, train split):',
    '# repository, the pinned commit mined, path, kind, gold lines in the file with the description cut out.',
    '# Identifiers only: the texts are re-derived from the repositories by training/mine_docs.py.',
    'repo\tcommit\tpath\tkind\tgold',
]


def ranges(lines):
    """[3, 4, 5, 9] -> '3-5,9-9' (every run written a-b)."""
    out, start, prev = [], None, None
    for g in sorted(lines):
        if start is None:
            start = prev = g
        elif g == prev + 1:
            prev = g
        else:
            out.append(f'{start}-{prev}')
            start = prev = g
    if start is not None:
        out.append(f'{start}-{prev}')
    return ','.join(out)


def rows(directory):
    for name in sorted(f for f in os.listdir(directory) if f.endswith('.jsonl')):
        with open(os.path.join(directory, name)) as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--work', required=True)
    ap.add_argument('--check', action='store_true')
    args = ap.parse_args()
    commits = COMMITS_HEAD + [f"{c['repo']}\t{c['commit']}\t{c['path']}\t{SPLIT[c['repo']]}"
                              for c in rows(os.path.join(args.work, 'commits'))]
    docs = DOCS_HEAD + [f"{c['repo']}\t{c['commit']}\t{c['path']}\t{c['kind']}\t{ranges(c['gold_lines'])}"
                        for c in rows(os.path.join(args.work, 'docs'))]
    differ = False
    for name, text, head in (('manifest.tsv', commits, COMMITS_HEAD), ('manifest-docs.tsv', docs, DOCS_HEAD)):
        path = os.path.join(HERE, name)
        n = len(text) - len(head)
        body = '\n'.join(text) + '\n'
        if args.check:
            with open(path) as f:
                same = f.read() == body
            differ |= not same
            print(f'{name}: {n} rows, {"same as" if same else "DIFFERENT from"} the committed one', file=sys.stderr)
        else:
            with open(path, 'w') as f:
                f.write(body)
            print(f'{name}: {n} rows', file=sys.stderr)
    sys.exit(1 if differ else 0)


if __name__ == '__main__':
    main()
