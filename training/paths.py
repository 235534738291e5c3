"""Default locations of the training scripts, so that none depends on one machine's layout.

- Mirrors (bare git clones, MIRROR/<owner>+<name>/repo, as the library's `fetch` writes them):
  --mirror, else $CTXPRUNE_MIRROR, else data/mirror in this repository.
- Work folder (mined examples, datasets, checkpoints): --work, else $CTXPRUNE_TRAIN_DIR, else
  data/train in this repository.
data/ is git-ignored: nothing mined or trained is committed.
"""
import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_mirror():
    return os.environ.get('CTXPRUNE_MIRROR') or os.path.join(REPO, 'data', 'mirror')


def default_work():
    return os.environ.get('CTXPRUNE_TRAIN_DIR') or os.path.join(REPO, 'data', 'train')
