#!/usr/bin/python3
"""Step 2 of the word-vector pretraining: PPMI (context-distribution smoothing 0.75) of the counts
that training/pretrain_words.mjs wrote, a randomized truncated SVD, rows scaled by sqrt(singular
value) and normalised to unit length, quantised to int8 (x/127). Writes DIR/words/keys.u32 (FNV-1a
of each term, ascending; features/semantic.ts termKey), DIR/words/vectors.i8 ([V, d]) and
DIR/words/table.json ({size, dim}). training/build_dataset.mjs computes the features with them and
training/export.py bakes them into the model as the outputs `word_keys` and `words`.

  /usr/bin/python3 training/pretrain_words.py --work DIR [--dim 48] [--seed 7]
Prints a few nearest neighbours as a sanity check.
"""
import argparse
import json
import os

import numpy as np

from paths import default_work


def fnv1a(term: str) -> int:
    h = 0x811C9DC5
    for ch in term:
        h ^= ord(ch)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def randomized_svd(m, k, seed, oversample=16, iters=4):
    rng = np.random.default_rng(seed)
    q = m @ rng.standard_normal((m.shape[1], k + oversample), dtype=np.float32)
    for _ in range(iters):  # power iterations, re-orthonormalised
        q, _ = np.linalg.qr(q)
        q = m @ (m.T @ q)
    q, _ = np.linalg.qr(q)
    b = q.T @ m
    ub, s, _ = np.linalg.svd(b, full_matrices=False)
    return (q @ ub)[:, :k], s[:k]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--work', default=default_work(), help='work folder (default: $CTXPRUNE_TRAIN_DIR, else data/train)')
    ap.add_argument('--dim', type=int, default=48)
    ap.add_argument('--seed', type=int, default=7)
    a = ap.parse_args()
    d = os.path.join(a.work, 'words')
    vocab = json.load(open(os.path.join(d, 'vocab.json')))
    n = len(vocab)
    c = np.fromfile(os.path.join(d, 'counts.f32'), dtype=np.float32).reshape(n, n)
    total = float(c.sum())
    row = c.sum(1, dtype=np.float64)
    ctx = row ** 0.75
    ctx /= ctx.sum()
    # PPMI in place, row block by row block (the matrix is V x V float32).
    for s in range(0, n, 2048):
        blk = c[s:s + 2048]
        with np.errstate(divide='ignore', invalid='ignore'):
            pmi = np.log(blk * total / np.maximum(row[s:s + 2048, None], 1e-9) / 1.0) - np.log(ctx[None, :] * total)
        pmi = np.where(blk > 0, pmi, 0.0)
        c[s:s + 2048] = np.maximum(pmi, 0.0).astype(np.float32)
    u, sv = randomized_svd(c, a.dim, a.seed)
    emb = u * np.sqrt(sv)[None, :]
    emb /= np.maximum(np.linalg.norm(emb, axis=1, keepdims=True), 1e-9)
    keys = np.array([fnv1a(t) for t in vocab], dtype=np.uint64)
    # A 32-bit collision keeps the more frequent term (vocab is sorted by frequency).
    _, first = np.unique(keys, return_index=True)
    keep = np.sort(first)
    order = keep[np.argsort(keys[keep], kind='stable')]
    vectors = np.clip(np.round(emb[order] * 127), -127, 127).astype(np.int8)
    keys[order].astype('<u4').tofile(os.path.join(d, 'keys.u32'))
    vectors.tofile(os.path.join(d, 'vectors.i8'))
    json.dump({'size': int(len(order)), 'dim': a.dim}, open(os.path.join(d, 'table.json'), 'w'))
    print(f'{len(order)} vectors x {a.dim} (dropped {n - len(order)} colliding terms)')
    idx = {t: i for i, t in enumerate(vocab)}
    for w in ('crash', 'error', 'wrong', 'slow', 'timeout', 'header', 'cookie', 'empty', 'missing', 'deprecated'):
        if w in idx:
            sims = emb @ emb[idx[w]]
            near = [vocab[j] for j in np.argsort(-sims)[1:9]]
            print(f'{w}: {" ".join(near)}')


if __name__ == '__main__':
    main()
