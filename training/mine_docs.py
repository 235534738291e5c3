#!/usr/bin/python3
"""Mine (description -> code) examples from the source trees of the training repositories.

The commit messages of mine_commits.py describe *changes*; an agent's query often describes *code*
("the function that retries on 429", an issue quoting a docstring). Two kinds of description are
mined at each repository's pinned revision (repos.PINNED), and each is cut out of the file so the model has to find the code
from the words, not from the description sitting next to it:
  - docstring: a Python function's docstring (its prose, up to the first section such as Args:)
    or a TS/JS JSDoc block (up to the first @tag) -> the function or declaration it documents;
  - comment: a 1-4 line comment of prose -> the block of code right under it (up to a blank
    line, a dedent or 12 lines).
Only the 'train' repositories of repos.py are trained on; `--split val` mines the held-out
repositories into DIR/docs-val/, a second held-out check (description -> code) beside the commits
of make_val_cases.py, which model selection uses.

Usage: /usr/bin/python3 training/mine_docs.py [--mirror MIRRORS] --out DIR [--per-repo 360]
Writes DIR/docs/<owner+name>.jsonl with the fields of mine_commits.py (commit = parent = the pinned revision)
plus kind (docstring | comment), id and source (the bench's case fields); with --split val, also
DIR/docs-val-cases.jsonl, all held-out cases in one file for `ctxprune bench --cases`.
"""
import argparse
import ast
import inspect
import json
import os
import random
import re
import subprocess
import sys

from mine_commits import SRC_EXT, TEST_RE, Blobs
from paths import default_mirror
from repos import FORBIDDEN, PINNED, REPOS

MAX_SPAN = 40
MIN_WORDS = 5
SECTION = re.compile(r'^\s*(args|arguments|parameters|params|returns?|yields?|raises|examples?|notes?|see also|'
                     r'attributes|keyword arguments|todo|warning|versionadded|versionchanged|deprecated)\s*:?\s*$|'
                     r'^\s*(:param|:type|:return|:raises|:rtype|>>>|\.\. |-{3,}|={3,})', re.I)
NOT_PROSE = re.compile(r'(noqa|pragma|type:\s*ignore|eslint|prettier|istanbul|@ts-|tslint|copyright|license|'
                       r'SPDX|-\*-|^!|TODO|FIXME|XXX|HACK|#region|#endregion|webpack|c8 ignore|jshint|global )', re.I)
CODE_LIKE = re.compile(r'(;\s*$|^\s*(return|if|for|while|import|from|const|let|var|def|class)\b.*[(=:]|\)\s*[:{]?\s*$|=>)')


def words(text: str) -> int:
    return len(re.findall(r'[A-Za-z]{2,}', text))


def prose_of_docstring(doc: str) -> str:
    out = []
    for line in inspect.cleandoc(doc).splitlines():
        if SECTION.match(line):
            break
        out.append(line)
    return '\n'.join(out).strip()[:1200]


def cut(lines, lo, hi):
    """Lines without [lo, hi] (0-based inclusive)."""
    return lines[:lo] + lines[hi + 1:]


def python_docstrings(text: str, lines):
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or len(node.body) < 2:
            continue
        first = node.body[0]
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
            continue
        query = prose_of_docstring(first.value.value)
        if words(query) < MIN_WORDS:
            continue
        d_lo, d_hi = first.lineno - 1, first.end_lineno - 1
        # The docstring must own its lines (no `"""doc"""; x = 1`).
        if lines[d_lo].strip()[:3] not in ('"""', "'''", 'r""', "r''") or d_hi >= node.end_lineno - 1:
            continue
        start, end = node.lineno - 1, node.end_lineno - 1
        n_cut = d_hi - d_lo + 1
        span = end - start + 1 - n_cut
        if not 2 <= span <= MAX_SPAN:
            continue
        yield 'docstring', query, d_lo, d_hi, (start, end - n_cut)


def comment_blocks(lines, prefix: str):
    """1-4 prose comment lines followed, at the same indentation, by code."""
    n = len(lines)
    i = 0
    while i < n:
        s = lines[i].strip()
        if not s.startswith(prefix) or s.startswith(prefix + '!') or (prefix == '//' and s.startswith('///')):
            i += 1
            continue
        indent = len(lines[i]) - len(lines[i].lstrip())
        j = i
        while j + 1 < n and lines[j + 1].strip().startswith(prefix) and len(lines[j + 1]) - len(lines[j + 1].lstrip()) == indent:
            j += 1
        body = [lines[k].strip()[len(prefix):].strip() for k in range(i, j + 1)]
        text = ' '.join(body)
        nxt = j + 1
        ok = (j - i < 4 and nxt < n and lines[nxt].strip() and len(lines[nxt]) - len(lines[nxt].lstrip()) == indent
              and not lines[nxt].strip().startswith(('#', '//', '/*', '*')) and words(text) >= MIN_WORDS
              and not NOT_PROSE.search(text) and not any(CODE_LIKE.search(b) for b in body))
        if ok:
            end = nxt
            while end + 1 < n and end + 1 - nxt < 12:
                t = lines[end + 1]
                if not t.strip() or len(t) - len(t.lstrip()) < indent:
                    break
                if len(t) - len(t.lstrip()) == indent and t.strip().startswith((prefix, '/*')):
                    break
                end += 1
            # A block that closes only part of a bracket would teach half a statement: drop it.
            if prefix == '#' or balanced(lines[nxt:end + 1]):
                n_cut = j - i + 1
                yield 'comment', text[:1200], i, j, (nxt - n_cut, end - n_cut)
        i = j + 1


def balanced(block) -> bool:
    depth = 0
    for line in block:
        for ch in strip_strings(line):
            if ch in '{([':
                depth += 1
            elif ch in '})]':
                depth -= 1
                if depth < 0:
                    return False
    return depth == 0


def strip_strings(line: str) -> str:
    line = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|`(\\.|[^`\\])*`', '""', line)
    k = line.find('//')
    return line if k < 0 else line[:k]


def jsdoc_blocks(lines):
    """A /** ... */ block whose prose documents the declaration under it (to its closing brace)."""
    n = len(lines)
    i = 0
    while i < n:
        if not lines[i].strip().startswith('/**'):
            i += 1
            continue
        j = i
        while j < n and '*/' not in lines[j] and j - i < 40:
            j += 1
        if j >= n or '*/' not in lines[j]:
            i = j + 1
            continue
        prose = []
        for k in range(i, j + 1):
            t = lines[k].strip()
            t = re.sub(r'^/\*\*|\*/$', '', t).strip()
            t = re.sub(r'^\*\s?', '', t)
            if t.startswith('@'):
                break
            prose.append(t)
        query = re.sub(r'\{@link\s+([^}]+)\}', r'\1', '\n'.join(prose)).strip()
        d = j + 1
        if d < n and lines[d].strip() and words(query) >= MIN_WORDS and not NOT_PROSE.search(query):
            end = declaration_end(lines, d)
            if end is not None and 1 <= end - d + 1 <= MAX_SPAN:
                n_cut = j - i + 1
                yield 'docstring', query[:1200], i, j, (d - n_cut, end - n_cut)
        i = j + 1


def declaration_end(lines, d):
    """Last line of the declaration starting at line d: where its brackets close (a bracket-free
    first line, such as an interface member, is the whole declaration)."""
    depth = 0
    opened = False
    for k in range(d, min(len(lines), d + MAX_SPAN)):
        for ch in strip_strings(lines[k]):
            if ch in '{([':
                depth += 1
                opened = True
            elif ch in '})]':
                depth -= 1
        if depth <= 0 and (opened or k == d):
            return k
    return None


def candidates(text: str, lang: str):
    lines = text.split('\n')
    if lang == 'python':
        yield from python_docstrings(text, lines)
        yield from comment_blocks(lines, '#')
    else:
        yield from jsdoc_blocks(lines)
        yield from comment_blocks(lines, '//')


def mine_repo(repo: str, mirror: str, out_dir: str, per_repo: int, seed: int, per_file: int = 4):
    git_dir = os.path.join(mirror, repo.replace('/', '+'), 'repo')
    head = PINNED[repo]
    names = subprocess.run(['git', '--git-dir', git_dir, 'ls-tree', '-r', '--name-only', head],
                           stdout=subprocess.PIPE, check=True).stdout.decode('utf-8', 'replace').splitlines()
    names = [p for p in names if os.path.splitext(p)[1] in SRC_EXT and not TEST_RE.search(p)]
    blobs = Blobs(git_dir)
    rng = random.Random(f'{seed}:{repo}')
    pool = {'docstring': [], 'comment': []}
    for path in sorted(names):
        text = blobs.text(head, path)
        if text is None:
            continue
        lines = text.split('\n')
        if not 30 <= len(lines) <= 6000:
            continue
        lang = SRC_EXT[os.path.splitext(path)[1]]
        found = {'docstring': [], 'comment': []}
        for kind, query, c_lo, c_hi, (g_lo, g_hi) in candidates(text, lang):
            found[kind].append((query, c_lo, c_hi, g_lo, g_hi))
        for kind, items in found.items():
            rng.shuffle(items)  # at most per_file per file and kind: many files, not a few big ones
            pool[kind] += [(path, lang, text, *it) for it in items[:per_file]]
    blobs.close()
    kept = {}
    with open(os.path.join(out_dir, repo.replace('/', '+') + '.jsonl'), 'w') as f:
        for kind, items in pool.items():
            rng.shuffle(items)
            take = items[:per_repo // 2]
            kept[kind] = len(take)
            for path, lang, text, query, c_lo, c_hi, g_lo, g_hi in take:
                lines = cut(text.split('\n'), c_lo, c_hi)
                f.write(json.dumps({'id': f'{repo}::{path}::{kind}::{g_lo + 1}', 'source': f'docs_{kind}',
                                    'repo': repo, 'commit': head, 'parent': head, 'path': path, 'language': lang,
                                    'kind': kind, 'query': query, 'gold_lines': list(range(g_lo + 1, g_hi + 2)),
                                    'file_text': '\n'.join(lines), 'n_lines': len(lines)}) + '\n')
    return head, {k: len(v) for k, v in pool.items()}, kept


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mirror', default=default_mirror(), help='bare mirrors, DIR/<owner>+<name>/repo (default: $CTXPRUNE_MIRROR, else data/mirror)')
    ap.add_argument('--out', required=True)
    ap.add_argument('--per-repo', type=int, default=360)
    ap.add_argument('--seed', type=int, default=11)
    ap.add_argument('--per-file', type=int, default=4, help='at most this many examples of each kind per file')
    ap.add_argument('--split', default='train', choices=['train', 'val'])
    ap.add_argument('--repos', nargs='*', default=None, help='only these repositories (of --split)')
    args = ap.parse_args()
    out_dir = os.path.join(args.out, 'docs' if args.split == 'train' else 'docs-val')
    os.makedirs(out_dir, exist_ok=True)
    stats = {}
    for repo, split in REPOS:
        if split != args.split or (args.repos and repo not in args.repos):
            continue
        assert repo.lower() not in FORBIDDEN, repo
        head, found, kept = mine_repo(repo, args.mirror, out_dir, args.per_repo, args.seed, args.per_file)
        stats[repo] = {'head': head, 'found': found, 'kept': kept}
        print(f'{repo}@{head[:12]}: found {found}, kept {kept}', file=sys.stderr, flush=True)
    with open(os.path.join(args.out, f'docs_stats_{args.split}.json'), 'w') as f:
        json.dump(stats, f, indent=1)
    if args.split == 'val':
        # The held-out cases in one file, in the bench format: ctxprune bench --cases DIR/docs-val-cases.jsonl
        with open(os.path.join(args.out, 'docs-val-cases.jsonl'), 'w') as f:
            for name in sorted(os.listdir(out_dir)):
                with open(os.path.join(out_dir, name)) as part:
                    f.write(part.read())


if __name__ == '__main__':
    main()
