#!/usr/bin/python3
"""Clone the repositories the scripts and benchmarks read, as bare mirrors at MIRROR/<owner>+<name>/repo,
and check that each holds the commit it is pinned at, so that anyone can rerun the README's numbers.

Every set is a list of identifiers already committed here; this script only makes them local:

  validation   the 48 validation repositories (training/validation.py), for `ctxprune bench --cases
               data/val/cases.jsonl` (training/mine_validation.py), the pack and compaction suites
  training     the 73 training repositories (training/repos.py, PINNED), for training/run_all.sh DATA=all
  training-v1  the 20 of them the shipped model was trained on (run_all.sh's default)
  languages    the 27 repositories of `ctxprune bench languages` (packages/core/bench/languages/files.json)
  bench        the 8 repositories of ../shared/bench's dev cases (read by its materialize.py; never trained on)
  all          every set above

  /usr/bin/python3 training/get_mirrors.py validation [--mirror MIRRORS] [--jobs 4] [--dry-run]
  /usr/bin/python3 training/get_mirrors.py --repo owner/name@COMMIT ...   # any repository, by hand

A mirror already there is kept when it holds its pin, and fetched again from the same URL when it
does not. The URL is --url with {repo} (owner/name) and {dir} (owner+name) filled in: GitHub by
default; a local template (file:///srv/git/{dir}) serves machines without network. Exits 1 when a
repository could not be cloned or lacks its pin. Needs git and, for the default URL, network.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from paths import REPO, default_mirror

DEFAULT_URL = 'https://github.com/{repo}.git'
BENCH_REPOS = ['psf/requests', 'pallets/flask', 'encode/httpx', 'sindresorhus/got', 'vitejs/vite',
               'pytest-dev/pytest', 'pylint-dev/pylint', 'mwaskom/seaborn']
SETS = ('validation', 'training', 'training-v1', 'languages', 'bench')


def set_members(name):
    """(repo, pins) pairs of one set; pins are the commits the mirror must hold (empty: any history)."""
    if name == 'validation':
        from validation import VALIDATION
        return [(repo, [pin]) for repo, _lang, _group, pin in VALIDATION]
    if name in ('training', 'training-v1'):
        from repos import PINNED, REPOS, V1_REPOS
        names = [r for r, _ in REPOS] if name == 'training' else V1_REPOS
        return [(repo, [PINNED[repo]]) for repo in names]
    if name == 'languages':
        with open(os.path.join(REPO, 'packages', 'core', 'bench', 'languages', 'files.json')) as f:
            return [(e['repo'], [e['commit']]) for e in json.load(f)]
    if name == 'bench':
        # The dev cases' commits where ../shared/bench is checked out beside this repository.
        meta = os.path.join(REPO, '..', 'shared', 'bench', 'dev-cases.meta.jsonl')
        pins = {repo: set() for repo in BENCH_REPOS}
        if os.path.exists(meta):
            with open(meta) as f:
                for line in f:
                    case = json.loads(line)
                    pins.setdefault(case['repo'], set()).add(case['commit'])
        return [(repo, sorted(p)) for repo, p in pins.items()]
    raise ValueError(name)


def git(*args, cwd=None):
    return subprocess.run(['git', *args], cwd=cwd, capture_output=True, text=True)


def missing_pins(git_dir, pins):
    return [p for p in pins if git('cat-file', '-e', f'{p}^{{commit}}', cwd=git_dir).returncode != 0]


def get_one(repo, pins, mirror, url_template, dry_run):
    """Clone (or complete) one mirror; returns (repo, status, detail)."""
    dirname = repo.replace('/', '+')
    url = url_template.format(repo=repo, dir=dirname)
    git_dir = os.path.join(mirror, dirname, 'repo')
    if os.path.isdir(git_dir):
        lacking = missing_pins(git_dir, pins)
        if not lacking:
            return repo, 'present', git_dir
        if dry_run:
            return repo, 'would fetch', f'{len(lacking)} pinned commit(s) missing from {git_dir}'
        git('fetch', '--quiet', url, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*', cwd=git_dir)
    else:
        if dry_run:
            return repo, 'would clone', url
        part = git_dir + '.part'
        shutil.rmtree(part, ignore_errors=True)
        os.makedirs(os.path.dirname(git_dir), exist_ok=True)
        r = git('clone', '--bare', '--quiet', url, part)
        if r.returncode != 0:
            shutil.rmtree(part, ignore_errors=True)
            return repo, 'failed', f'git clone {url}: {r.stderr.strip() or r.returncode}'
        os.replace(part, git_dir)
    # A pin off every branch (a merged pull request's head) is fetched by its id; GitHub serves those.
    for pin in missing_pins(git_dir, pins):
        git('fetch', '--quiet', url, pin, cwd=git_dir)
    lacking = missing_pins(git_dir, pins)
    if lacking:
        return repo, 'failed', f'{git_dir} lacks {", ".join(p[:12] for p in lacking)}'
    return repo, 'cloned', git_dir


def parse_repo_arg(text):
    repo, _, pin = text.partition('@')
    if repo.count('/') != 1 or not all(repo.split('/')):
        raise argparse.ArgumentTypeError(f'expected owner/name[@COMMIT], got "{text}"')
    return repo, [pin] if pin else []


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('sets', nargs='*', metavar='SET', help=f'which repositories: {", ".join(SETS)} or all (see above)')
    ap.add_argument('--repo', action='append', type=parse_repo_arg, default=[], help='owner/name[@COMMIT], repeatable')
    ap.add_argument('--mirror', default=default_mirror(), help='where the mirrors go (default: $CTXPRUNE_MIRROR, else data/mirror)')
    ap.add_argument('--url', default=DEFAULT_URL, help=f'clone URL template with {{repo}} or {{dir}} (default: {DEFAULT_URL})')
    ap.add_argument('--jobs', type=int, default=4, help='clones at once (default 4)')
    ap.add_argument('--dry-run', action='store_true', help='say what would be cloned or fetched, do nothing')
    args = ap.parse_args()
    if not args.sets and not args.repo:
        ap.error('name a set or give --repo')
    for name in args.sets:
        if name not in (*SETS, 'all'):
            ap.error(f'unknown set "{name}" (choose from {", ".join(SETS)}, all)')
    names = SETS if 'all' in args.sets else list(dict.fromkeys(args.sets))
    wanted = {}
    for name in names:
        for repo, pins in set_members(name):
            wanted.setdefault(repo, set()).update(pins)
    for repo, pins in args.repo:
        wanted.setdefault(repo, set()).update(pins)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda item: get_one(item[0], sorted(item[1]), args.mirror, args.url, args.dry_run),
                                sorted(wanted.items())))
    failed = 0
    for repo, status, detail in results:
        print(f'{status:12} {repo}  {detail}')
        failed += status == 'failed'
    counts = {}
    for _, status, _ in results:
        counts[status] = counts.get(status, 0) + 1
    print(f'{len(results)} repositories under {args.mirror}: ' + ', '.join(f'{v} {k}' for k, v in sorted(counts.items())))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
