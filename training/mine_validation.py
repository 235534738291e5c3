#!/usr/bin/python3
"""Mine the validation corpus (validation.py) into bench cases: the corpus every knob is tuned on.

Three kinds of case, each from a repository's history at its pinned commit:
  - commit: a bug-fix commit's message -> the pre-image lines its diff edits, filtered exactly as the
    benchmark's commit cases are (mine_commits.py: one parent, 1-2 non-test source files, <= 80 changed
    lines, a descriptive message);
  - issue: the same, when the message carries a bug report (a traceback or stack, quoted code, steps
    to reproduce, an error message): squash merges that quote the issue they fix;
  - description: a docstring/JSDoc or prose comment cut out of the file -> the code it describes
    (mine_docs.py), at the pinned commit.
Sampling is seeded by repository, so a rerun on the same pins gives the same cases. The identifiers
(repository, commit, path, kind, gold lines) are written to training/validation-cases.tsv, which is
committed; the texts (DIR/cases.jsonl, in the format of ../shared/bench's materialized cases) are not.

  /usr/bin/python3 training/mine_validation.py [--mirror MIRRORS] --out data/val [--jobs 2]
  node packages/core/bin/ctxprune.js bench --cases data/val/cases.jsonl --ratio 8
"""
import argparse
import json
import os
import random
import re
import sys
from functools import partial
from multiprocessing import Pool

from paths import default_mirror
from mine_commits import SRC_EXT, TEST_RE, Blobs, clean_message, commits, eligible_sources, gold_lines
from mine_docs import candidates, cut
from validation import VALIDATION

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_LINES = 3000
# What a bug report gives away, as commit messages quote it.
ISSUE_SIGNS = re.compile(
    r'Traceback \(most recent call last\)|^\s*File "[^"]+", line \d+|^\s+at \S.*\(?\S+:\d+:\d+\)?\s*$|```|'
    r'steps to reproduce|to reproduce|minimal reproduction|reproduction|expected (behaviou?r|result|output)|'
    r'actual (behaviou?r|result|output)|^\s*[A-Za-z_.]*(Error|Exception)\b[^\n]*:|^\s*>>> |^\s*\$ ', re.I | re.M)


def is_issue_style(message: str) -> bool:
    body = message.strip()
    return len(body) >= 250 and bool(ISSUE_SIGNS.search(body))


def mine_history(repo, git_dir, pin, rng, caps, max_commits):
    """(kind, case) for commit and issue cases, sampled uniformly from the eligible commits."""
    eligible = []
    for sha, parents, msg, files in commits(git_dir, max_commits, pin):
        src = eligible_sources(parents, msg, files)
        if src is None:
            continue
        query = clean_message(msg)
        eligible.append(('issue' if is_issue_style(query) else 'commit', sha, parents[0], query, src))
    rng.shuffle(eligible)
    blobs = Blobs(git_dir)
    taken = {'commit': 0, 'issue': 0}
    seen = set()
    for kind, sha, parent, query, src in eligible:
        if taken[kind] >= caps[kind]:
            if all(taken[k] >= caps[k] for k in taken):
                break
            continue
        # One case per commit: the first of its files that qualifies (the benchmark's cases are per file).
        for _a, _d, path in sorted(src, key=lambda f: f[2]):
            text = blobs.text(parent, path)
            if text is None:
                continue
            pre = text.split('\n')
            if not (30 <= len(pre) <= MAX_LINES):
                continue
            gold, hunks = gold_lines(git_dir, parent, sha, path, pre)
            if not gold or len(gold) > 60 or hunks > 6 or (path, tuple(gold)) in seen:
                continue
            seen.add((path, tuple(gold)))
            taken[kind] += 1
            yield kind, {'repo': repo, 'commit': sha, 'parent': parent, 'path': path, 'query': query,
                         'gold_lines': gold, 'file_text': text}
            break
    blobs.close()


def mine_descriptions(repo, git_dir, pin, rng, cap):
    """Docstring and comment cases at the pinned commit, at most two per file, half of each kind."""
    import subprocess
    names = subprocess.run(['git', '--git-dir', git_dir, 'ls-tree', '-r', '--name-only', pin],
                           stdout=subprocess.PIPE, check=True).stdout.decode('utf-8', 'replace').splitlines()
    names = sorted(p for p in names if os.path.splitext(p)[1] in SRC_EXT and not TEST_RE.search(p))
    rng.shuffle(names)
    blobs = Blobs(git_dir)
    pool = {'docstring': [], 'comment': []}
    for path in names[:400]:
        text = blobs.text(pin, path)
        if text is None:
            continue
        if not 30 <= text.count('\n') + 1 <= MAX_LINES:
            continue
        found = {'docstring': [], 'comment': []}
        for kind, query, c_lo, c_hi, (g_lo, g_hi) in candidates(text, SRC_EXT[os.path.splitext(path)[1]]):
            found[kind].append((path, text, query, c_lo, c_hi, g_lo, g_hi))
        for kind, items in found.items():
            rng.shuffle(items)
            pool[kind] += items[:2]
    blobs.close()
    for kind, items in pool.items():
        rng.shuffle(items)
        for path, text, query, c_lo, c_hi, g_lo, g_hi in items[:cap // 2]:
            original = text.split('\n')
            lines = cut(original, c_lo, c_hi)
            # Code after a JSDoc's `*/` on its last line (`/** it … */ {`) stays, on a line of its own:
            # cutting it would leave a file that does not parse. (mine_docs.py, whose examples the
            # shipped model was trained on, is left as it was so that they reproduce.)
            last = original[c_hi]
            code = last.split('*/', 1)[1].strip() if kind == 'docstring' and '*/' in last else ''
            if code:
                lines.insert(c_lo, last[:len(last) - len(last.lstrip())] + code)
                g_lo, g_hi = g_lo + 1, g_hi + 1
            yield 'description', {'repo': repo, 'commit': pin, 'parent': pin, 'path': path, 'query': query,
                                  'gold_lines': list(range(g_lo + 1, g_hi + 2)), 'file_text': '\n'.join(lines),
                                  'description_kind': kind}


def mine_repo(entry, args):
    """Every case of one repository, in the bench's case format (with file texts)."""
    repo, group, code_kind, pin = entry
    git_dir = os.path.join(args.mirror, repo.replace('/', '+'), 'repo')
    if not os.path.isdir(git_dir):
        sys.exit(f'{repo}: no mirror at {git_dir} (fetch github:{repo})')
    rng = random.Random(f'{args.seed}:{repo}')
    caps = {'commit': args.commits, 'issue': args.issues}
    mined = list(mine_history(repo, git_dir, pin, rng, caps, args.max_commits))
    mined += list(mine_descriptions(repo, git_dir, pin, rng, args.descriptions))
    out = []
    for kind, c in mined:
        case_id = f"{repo}::{kind}::{c['commit'][:10]}::{c['path']}"
        if kind == 'description':
            case_id += f"::{c['description_kind']}::{c['gold_lines'][0]}"
        out.append({
            'id': case_id, 'source': f'validation_{kind}', 'kind': kind, 'repo': repo, 'group': code_kind,
            'commit': c['commit'], 'parent': c['parent'], 'path': c['path'],
            'language': SRC_EXT[os.path.splitext(c['path'])[1]], 'query': c['query'], 'gold_lines': c['gold_lines'],
            'n_lines': c['file_text'].count('\n') + 1, 'file_text': c['file_text'],
        })
    per = {}
    for c in out:
        per[c['kind']] = per.get(c['kind'], 0) + 1
    print(f'{repo}@{pin[:10]} ({group}, {code_kind}): {per}', file=sys.stderr, flush=True)
    return out


def write_manifest(path, cases):
    with open(path, 'w') as f:
        f.write('# Validation cases (training/mine_validation.py at the pins of training/validation.py): identifiers only.\n')
        f.write("# file_commit is the commit whose file the case prunes (a fix commit's parent; the pin for descriptions).\n")
        f.write('id\trepo\tfile_commit\tpath\tkind\tlanguage\tgold_lines\n')
        for c in cases:
            f.write('\t'.join((c['id'], c['repo'], c['parent'], c['path'], c['kind'], c['language'],
                               ','.join(map(str, c['gold_lines'])))) + '\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mirror', default=default_mirror(), help='bare mirrors, DIR/<owner>+<name>/repo (default: $CTXPRUNE_MIRROR, else data/mirror)')
    ap.add_argument('--out', default='data/val')
    ap.add_argument('--commits', type=int, default=60, help='commit cases per repository')
    ap.add_argument('--issues', type=int, default=25, help='issue-style cases per repository, where its history has them')
    ap.add_argument('--descriptions', type=int, default=20, help='description cases per repository')
    ap.add_argument('--max-commits', type=int, default=8000)
    ap.add_argument('--seed', type=int, default=14)
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--repos', nargs='*', default=None)
    ap.add_argument('--manifest', default=os.path.join(HERE, 'validation-cases.tsv'))
    ap.add_argument('--manifest-only', action='store_true', help='write the manifest of an existing OUT/cases.jsonl')
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    cases_path = os.path.join(args.out, 'cases.jsonl')
    if args.manifest_only:
        order = {r.lower(): i for i, (r, *_rest) in enumerate(VALIDATION)}
        cases = [json.loads(l) for l in open(cases_path) if l.strip()]
        cases.sort(key=lambda c: order[c['repo'].lower()])  # stable: each repository's own order stays
        with open(cases_path, 'w') as out:
            for c in cases:
                out.write(json.dumps(c) + '\n')
    else:
        entries = [e for e in VALIDATION if not args.repos or e[0] in args.repos]
        cases = []
        with Pool(args.jobs) as pool:
            for part in pool.imap(partial(mine_repo, args=args), entries):
                cases += part
        with open(cases_path, 'w') as out:
            for c in cases:
                out.write(json.dumps(c) + '\n')
    if not args.repos:
        write_manifest(args.manifest, cases)
    by_kind, by_lang = {}, {}
    for c in cases:
        by_kind[c['kind']] = by_kind.get(c['kind'], 0) + 1
        by_lang[c['language']] = by_lang.get(c['language'], 0) + 1
    print(f'{len(cases)} cases from {len({c["repo"] for c in cases})} repositories: {by_kind} {by_lang}', file=sys.stderr)


if __name__ == '__main__':
    main()
