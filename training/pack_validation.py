#!/usr/bin/python3
"""The pack benchmark's instances from the validation corpus's issue-style cases (issue #19).

Each issue-style case of OUT/cases.jsonl (mine_validation.py) is a fix commit whose message quotes a
bug report. For the pack benchmark (`ctxprune bench pack`) each becomes an instance like the dev
SWE-bench ones: the task is the case's query, the repository is the tree of non-test source files at
the fix's parent (written under POOLS/owner+name/PARENT/, as ../shared/bench/materialize.py --pools
does for dev), and the gold is the pre-image lines of every non-test source file the fix edits (the
case itself keeps only the first such file). Test, docs, examples and build paths are mine_commits's
TEST_RE, the same filter the miners use.

Writes OUT/pack/instances.jsonl (instance_id, repo, base_commit, problem_statement, files_touched,
language) and OUT/pack/gold.jsonl (instance_id, path, gold_lines: goldFromCases's format). Nothing
here is committed: data/ is ignored, and the repository keeps only this script.

  /usr/bin/python3 training/pack_validation.py [--mirror MIRRORS] --out data/val
  node packages/core/bin/ctxprune.js bench pack --instances data/val/pack/instances.jsonl \\
      --cases data/val/pack/gold.jsonl --pools data/val/pools
"""
import argparse
import json
import os
import subprocess
import sys

from paths import default_mirror
from mine_commits import SRC_EXT, TEST_RE, Blobs, gold_lines


def git(git_dir, *args):
    return subprocess.run(['git', '--git-dir', git_dir, *args], stdout=subprocess.PIPE, check=True).stdout


def pool_paths(git_dir, rev):
    """Non-test source files at REV (regular blobs, no symlinks or submodules)."""
    out = []
    for line in git(git_dir, 'ls-tree', '-r', rev).decode('utf-8', 'surrogateescape').splitlines():
        meta, path = line.split('\t', 1)
        mode, kind, _sha = meta.split()
        if kind == 'blob' and mode != '120000' and os.path.splitext(path)[1] in SRC_EXT and not TEST_RE.search(path):
            out.append(path)
    return out


def write_pool(git_dir, rev, dest, blobs):
    """The pool at REV under DEST (skipped when DEST exists); blobs the snapshot lacks are left out."""
    if os.path.isdir(dest):
        return
    tmp = dest + '.partial'
    for path in pool_paths(git_dir, rev):
        data = blobs.get(rev, path)
        if data is None:
            continue
        target = os.path.join(tmp, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, 'wb') as f:
            f.write(data)
    os.makedirs(tmp, exist_ok=True)
    os.rename(tmp, dest)


def patched_sources(git_dir, parent, sha):
    """Non-test source files the commit modifies (present before and after)."""
    names = git(git_dir, 'diff', '--name-only', '--no-renames', '--diff-filter=M', parent, sha)
    return sorted(p for p in names.decode('utf-8', 'surrogateescape').splitlines()
                  if os.path.splitext(p)[1] in SRC_EXT and not TEST_RE.search(p))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mirror', default=default_mirror(), help='bare mirrors, DIR/<owner>+<name>/repo (default: $CTXPRUNE_MIRROR, else data/mirror)')
    ap.add_argument('--out', default='data/val', help='holds cases.jsonl; pack/ and pools/ are written here')
    ap.add_argument('--pools', default=None, help='default: OUT/pools')
    a = ap.parse_args()
    pools = a.pools or os.path.join(a.out, 'pools')
    cases = [json.loads(l) for l in open(os.path.join(a.out, 'cases.jsonl')) if l.strip()]
    issues = [c for c in cases if c['kind'] == 'issue']
    os.makedirs(os.path.join(a.out, 'pack'), exist_ok=True)
    n_gold = 0
    with open(os.path.join(a.out, 'pack', 'instances.jsonl'), 'w') as inst, \
            open(os.path.join(a.out, 'pack', 'gold.jsonl'), 'w') as gold:
        for c in issues:
            git_dir = os.path.join(a.mirror, c['repo'].replace('/', '+'), 'repo')
            if not os.path.isdir(git_dir):
                sys.exit(f"{c['repo']}: no mirror at {git_dir} (fetch github:{c['repo']})")
            blobs = Blobs(git_dir)
            touched = []
            for path in patched_sources(git_dir, c['parent'], c['commit']):
                data = blobs.get(c['parent'], path)
                if data is None:
                    continue
                lines, _hunks = gold_lines(git_dir, c['parent'], c['commit'], path, data.decode('utf-8', 'replace').split('\n'))
                if not lines:
                    continue
                touched.append(path)
                n_gold += 1
                gold.write(json.dumps({'instance_id': c['id'], 'path': path, 'gold_lines': lines}) + '\n')
            if c['path'] not in touched:  # the case's own file is always gold
                sys.exit(f"{c['id']}: the case's file is not among the commit's patched sources")
            write_pool(git_dir, c['parent'], os.path.join(pools, c['repo'].replace('/', '+'), c['parent']), blobs)
            blobs.close()
            inst.write(json.dumps({'instance_id': c['id'], 'repo': c['repo'], 'base_commit': c['parent'],
                                   'problem_statement': c['query'], 'files_touched': touched,
                                   'language': c['language']}) + '\n')
    print(f'{len(issues)} issue-style instances, {n_gold} patched files with gold lines; pools under {pools}', file=sys.stderr)


if __name__ == '__main__':
    main()
