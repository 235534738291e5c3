#!/usr/bin/python3
"""Mine commit cases for the eight other languages (Go, Rust, Java, C, C++, C#, Ruby, PHP): the
recall check behind what `auto` runs for them.

The repositories are those of `ctxprune bench languages` (packages/core/bench/languages/files.json:
27 public repositories, none a benchmark, SWE-bench or reserved one), each read from the commit
that file pins, with their "tune" / "held-out" split. Cases are mined as the benchmark's commit
cases are (mine_commits.py: one parent, 1-2 non-test source files, <= 80 changed lines, a
descriptive message; the message is the query, the pre-image lines the fix edits are gold), with
each language's own test files left out, files of 30-3,000 lines, up to 40 cases per repository
in a seeded order. The identifiers are written to training/languages-cases.tsv (committed); the
texts to OUT/cases.jsonl (not committed).

  /usr/bin/python3 training/mine_languages.py [--mirror MIRRORS] --out data/languages
  npx ctxprune bench --cases data/languages/cases.jsonl --ratio 8 --scorer lexical|neural|auto
"""
import argparse
import json
import os
import random
import re
import sys

from paths import default_mirror
from mine_commits import TEST_RE, Blobs, clean_message, commits, eligible_sources, gold_lines
from repos import FORBIDDEN_LOWER

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, '..', 'packages', 'core', 'bench', 'languages', 'files.json')
EXT = {'.go': 'go', '.rs': 'rust', '.java': 'java', '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.hpp': 'cpp',
       '.cs': 'csharp', '.rb': 'ruby', '.php': 'php'}
# Test files by these languages' conventions, beside the benchmark's (TEST_RE): Go's _test.go, Java's
# src/test and *Test.java, C#'s *.Tests projects, RSpec's _spec.rb, and vendored code.
OTHER_TESTS = re.compile(TEST_RE.pattern + r'|_test\.(go|cc|c|cpp)$|(^|/)[^/]*\.Tests?(/|$)|Tests?\.(java|cs)$|(^|/)src/test/|'
                         r'_spec\.rb$|(^|/)(third_party|deps|t)/')


def mine_repo(entry, mirror, per_repo, max_commits, seed):
    repo, pin = entry['repo'], entry['commit']
    assert repo.lower() not in FORBIDDEN_LOWER, f'{repo} is a benchmark, SWE-bench or reserved repository'
    git_dir = os.path.join(mirror, repo.replace('/', '+'), 'repo')
    if not os.path.isdir(git_dir):
        sys.exit(f'{repo}: no mirror at {git_dir} (fetch github:{repo})')
    eligible = []
    for sha, parents, msg, files in commits(git_dir, max_commits, pin):
        src = eligible_sources(parents, msg, files, EXT, OTHER_TESTS)
        if src is not None:
            eligible.append((sha, parents[0], clean_message(msg), src))
    random.Random(f'{seed}:{repo}').shuffle(eligible)
    blobs = Blobs(git_dir)
    out = []
    for sha, parent, query, src in eligible:
        if len(out) >= per_repo:
            break
        path = src[0][2]
        text = blobs.text(parent, path)
        if text is None:
            continue
        lines = text.split('\n')
        if not 30 <= len(lines) <= 3000:
            continue
        gold, _hunks = gold_lines(git_dir, parent, sha, path, lines)
        if not gold or len(gold) > 60:
            continue
        out.append({'id': f'{repo}::commit::{sha[:10]}::{path}', 'source': 'languages_commit', 'kind': 'commit', 'repo': repo,
                    'group': entry['split'], 'commit': sha, 'parent': parent, 'path': path, 'language': entry['language'],
                    'query': query, 'gold_lines': gold, 'n_lines': len(lines), 'file_text': text})
    blobs.close()
    print(f'{repo}@{pin[:10]} ({entry["language"]}, {entry["split"]}): {len(out)} of {len(eligible)} eligible', file=sys.stderr, flush=True)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mirror', default=default_mirror(), help='bare mirrors, DIR/<owner>+<name>/repo (default: $CTXPRUNE_MIRROR, else data/mirror)')
    ap.add_argument('--out', default='data/languages')
    ap.add_argument('--per-repo', type=int, default=40)
    ap.add_argument('--max-commits', type=int, default=4000)
    ap.add_argument('--seed', type=int, default=14)
    ap.add_argument('--manifest', default=os.path.join(HERE, 'languages-cases.tsv'))
    args = ap.parse_args()
    cases = []
    for entry in json.load(open(FILES)):
        cases += mine_repo(entry, args.mirror, args.per_repo, args.max_commits, args.seed)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'cases.jsonl'), 'w') as f:
        for c in cases:
            f.write(json.dumps(c) + '\n')
    with open(args.manifest, 'w') as f:
        f.write('# Other-language commit cases (training/mine_languages.py at the commits of packages/core/bench/languages/files.json): identifiers only.\n')
        f.write("# file_commit is the fix commit's parent, whose file the case prunes; split is the languages bench's.\n")
        f.write('id\trepo\tfile_commit\tpath\tlanguage\tsplit\tgold_lines\n')
        for c in cases:
            f.write('\t'.join((c['id'], c['repo'], c['parent'], c['path'], c['language'], c['group'], ','.join(map(str, c['gold_lines'])))) + '\n')
    by = {}
    for c in cases:
        by[c['language']] = by.get(c['language'], 0) + 1
    print(f'{len(cases)} cases from {len({c["repo"] for c in cases})} repositories: {by}', file=sys.stderr)


if __name__ == '__main__':
    main()
