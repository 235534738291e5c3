#!/usr/bin/python3
"""Mine (commit message -> pre-image edited lines) examples from bare git mirrors.

Filters follow the benchmark's commit cases (shared/bench): one parent, 1-2 non-test source files
touched, small hunks, a descriptive message; merges, reverts, version bumps and formatting-only
changes are skipped. Gold lines = pre-image lines the diff removes or modifies, plus the two lines
around a pure insertion (1-based, like the benchmark's gold_lines).

Usage: /usr/bin/python3 training/mine_commits.py [--mirror MIRRORS] --out DIR [--per-repo 900]
Writes DIR/commits/<owner+name>.jsonl with: repo, commit, parent, path, language, query, gold_lines,
file_text, n_lines.
"""
import argparse
import json
import os
import re
import subprocess
import sys

from paths import default_mirror
from repos import FORBIDDEN, HISTORY_LIMIT, PINNED, REPOS
import validation  # noqa: F401 (its asserts: no training repository is a validation repository)

SRC_EXT = {'.py': 'python', '.ts': 'typescript', '.tsx': 'typescript', '.js': 'javascript',
           '.mjs': 'javascript', '.cjs': 'javascript'}
TEST_RE = re.compile(r'(^|/)(tests?|__tests__|spec|testing|test_utils|fixtures?|examples?|docs?|benchmarks?|scripts?|'
                     r'playground|e2e|types/test)(/|$)|(^|/)test_[^/]*$|_test\.py$|\.(test|spec|bench)\.[cm]?[jt]sx?$|'
                     r'(^|/)conftest\.py$|\.d\.ts$|\.min\.js$|(^|/)(dist|build|vendor|node_modules|lib/vendor)/')
SKIP_MSG = re.compile(r'^\s*(merge|revert|bump|release|prepare release|version|v?\d+\.\d+|changelog|chore\(release\)|'
                      r'chore\(deps|build\(deps|deps|update dependenc|format|reformat|black|prettier|lint|style|'
                      r'typo|fix typo|docs?[:(]|wip\b|apply suggestions|update \S+\.md|auto-?generated|autofix|'
                      r'pre-commit|\[pre-commit|ci[:(]|test[s]?[:(])', re.I)
TRAILER = re.compile(r'^(signed-off-by|co-authored-by|reviewed-by|acked-by|cc|change-id|pr-url)\s*:', re.I)
HUNK = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@')


def clean_message(msg: str) -> str:
    lines = [l for l in msg.strip().splitlines() if not TRAILER.match(l.strip())]
    text = '\n'.join(lines).strip()
    return text[:2000]


def descriptive(subject: str) -> bool:
    if SKIP_MSG.match(subject):
        return False
    words = re.findall(r'[A-Za-z]{2,}', subject)
    return len(words) >= 3 and len(subject) >= 15


class Blobs:
    def __init__(self, git_dir: str):
        self.p = subprocess.Popen(['git', '--git-dir', git_dir, 'cat-file', '--batch'],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def get(self, rev: str, path: str):
        self.p.stdin.write(f'{rev}:{path}\n'.encode())
        self.p.stdin.flush()
        header = self.p.stdout.readline().decode()
        if header.endswith('missing\n') or ' ' not in header:
            return None
        size = int(header.split()[2])
        data = self.p.stdout.read(size)
        self.p.stdout.read(1)
        return data

    def text(self, rev: str, path: str):
        """The file as text, or None when it is missing, over 400 KB or binary (a NUL byte): what
        every miner reads."""
        data = self.get(rev, path)
        if data is None or len(data) > 400_000 or b'\0' in data:
            return None
        return data.decode('utf-8', 'replace')

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def _records(git_dir: str, max_commits: int, rev: str):
    """The log's records as they arrive (the caller stops reading when it has enough): a record is
    yielded once the next one starts, the last one only when git exits cleanly."""
    p = subprocess.Popen(['git', '--git-dir', git_dir, 'log', '--no-merges', f'-n{max_commits}', '--no-renames',
                          '--format=%x01%H %P%x02%B%x03', '--numstat', rev], stdout=subprocess.PIPE)
    buf = b''
    n = 0
    started = False
    try:
        while True:
            chunk = p.stdout.read1(1 << 16)
            if not chunk:
                break
            parts = (buf + chunk).split(b'\x01')
            buf = parts.pop()
            for part in parts:
                if started:
                    n += 1
                    yield part.decode('utf-8', 'replace')
                started = True
        if p.wait() == 0:
            if started:
                yield buf.decode('utf-8', 'replace')
        else:
            # A snapshot may lack old objects: keep the history read before the gap (its last record may be cut).
            print(f'{git_dir}: history readable for {n} commits from {rev[:10]}', file=sys.stderr)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        p.stdout.close()


def commits(git_dir: str, max_commits: int, rev: str = 'HEAD'):
    """Yield (sha, parents, message, [(add, del, path)]) from `rev` back."""
    for rec in _records(git_dir, max_commits, rev):
        head, _, rest = rec.partition('\x02')
        msg, _, stat = rest.partition('\x03')
        shas = head.split()
        files = []
        for line in stat.strip().splitlines():
            parts = line.split('\t')
            if len(parts) == 3:
                a, d, path = parts
                files.append((int(a) if a != '-' else -1, int(d) if d != '-' else -1, path))
        yield shas[0], shas[1:], msg, files


def eligible_sources(parents, msg, files, ext=SRC_EXT, test_re=TEST_RE):
    """The source files a commit edits when it is a case (the benchmark's filter), else None: one
    parent, a descriptive subject, 1-2 non-test source files of <= 80 changed lines, <= 8 files.
    `ext` and `test_re` say what a source file and a test file are (Python and TS/JS by default)."""
    if len(parents) != 1:
        return None
    subject = msg.strip().splitlines()[0] if msg.strip() else ''
    if not descriptive(subject):
        return None
    src = [(a, d, p) for a, d, p in files if os.path.splitext(p)[1] in ext and not test_re.search(p)]
    if not (1 <= len(src) <= 2) or len(files) > 8 or any(a < 0 or a + d > 80 for a, d, _ in src):
        return None
    return src


def gold_lines(git_dir: str, parent: str, sha: str, path: str, pre_lines: list):
    out = subprocess.run(['git', '--git-dir', git_dir, 'diff', '-U0', '--no-color', '--no-ext-diff', parent, sha,
                          '--', path], stdout=subprocess.PIPE).stdout.decode('utf-8', 'replace')
    gold = set()
    hunks = 0
    for line in out.splitlines():
        m = HUNK.match(line)
        if not m:
            continue
        hunks += 1
        start = int(m.group(1))
        count = int(m.group(2)) if m.group(2) is not None else 1
        if count > 0:
            gold.update(range(start, start + count))
        else:  # pure insertion after line `start`: anchor the lines around it
            for l in (start, start + 1):
                if 1 <= l <= len(pre_lines) and pre_lines[l - 1].strip():
                    gold.add(l)
    return sorted(g for g in gold if 1 <= g <= len(pre_lines)), hunks


def mine_repo(repo: str, mirror: str, out_dir: str, per_repo: int, max_commits: int):
    git_dir = os.path.join(mirror, repo.replace('/', '+'), 'repo')
    blobs = Blobs(git_dir)
    n_scanned = n_kept = 0
    seen = set()
    out_path = os.path.join(out_dir, repo.replace('/', '+') + '.jsonl')
    with open(out_path, 'w') as f:
        for sha, parents, msg, files in commits(git_dir, max_commits, PINNED.get(repo, 'HEAD')):
            n_scanned += 1
            src = eligible_sources(parents, msg, files)
            if src is None:
                continue
            subject = msg.strip().splitlines()[0]
            query = clean_message(msg)
            for a, d, path in src:
                text = blobs.text(parents[0], path)
                if text is None:
                    continue
                pre = text.split('\n')
                if not (30 <= len(pre) <= 6000):
                    continue
                gold, hunks = gold_lines(git_dir, parents[0], sha, path, pre)
                if not gold or len(gold) > 60 or hunks > 6:
                    continue
                key = (path, tuple(gold), subject)
                if key in seen:
                    continue
                seen.add(key)
                lang = SRC_EXT[os.path.splitext(path)[1]]
                f.write(json.dumps({'repo': repo, 'commit': sha, 'parent': parents[0], 'path': path,
                                    'language': lang, 'query': query, 'gold_lines': gold, 'file_text': text,
                                    'n_lines': len(pre)}) + '\n')
                n_kept += 1
            if n_kept >= per_repo:
                break
    blobs.close()
    return n_scanned, n_kept


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mirror', default=default_mirror(), help='bare mirrors, DIR/<owner>+<name>/repo (default: $CTXPRUNE_MIRROR, else data/mirror)')
    ap.add_argument('--out', required=True)
    ap.add_argument('--per-repo', type=int, default=900)
    ap.add_argument('--max-commits', type=int, default=12000)
    ap.add_argument('--repos', nargs='*', default=None)
    args = ap.parse_args()
    out_dir = os.path.join(args.out, 'commits')
    os.makedirs(out_dir, exist_ok=True)
    stats = {}
    for repo in (args.repos or [r for r, _ in REPOS]):
        assert repo.lower() not in FORBIDDEN, repo
        limit = min(args.max_commits, HISTORY_LIMIT.get(repo, args.max_commits))
        scanned, kept = mine_repo(repo, args.mirror, out_dir, args.per_repo, limit)
        stats[repo] = {'scanned': scanned, 'examples': kept}
        print(f'{repo}: scanned {scanned} commits, kept {kept} examples', file=sys.stderr, flush=True)
    with open(os.path.join(args.out, 'mine_stats.json'), 'w') as f:
        json.dump(stats, f, indent=1)


if __name__ == '__main__':
    main()
