#!/usr/bin/python3
"""Train the LaMR line scorer on DIR/dataset (training/build_dataset.mjs); select on held-out repos.

  /usr/bin/python3 training/train.py --work DIR [--minutes 25] [--seed 7]
Writes DIR/model/best.pt and DIR/model/train_log.json.
"""
import argparse
import json
import math
import os
import random
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import LineScorer, crf_nll  # noqa: E402
from paths import default_work  # noqa: E402
from repos import REPOS  # noqa: E402

COST_FEATURE = 'cost'


def load(work):
    """All shards of WORK/dataset in one array (read in place: peak memory is the dataset's size,
    not twice it, which matters at tens of thousands of examples), and their line tokens
    (tokens.u16, build_dataset.mjs --tokens) when every shard has them, else None; the last shard's
    meta.json says how many buckets they hash into (`token_buckets`)."""
    root = os.path.join(work, 'dataset')
    shards = [os.path.join(root, s) for s in sorted(os.listdir(root))]
    metas = [json.load(open(os.path.join(d, 'meta.json'))) for d in shards]
    F = metas[0]['features']
    assert all(m['features'] == F for m in metas), 'shards with different feature counts'
    rows = [os.path.getsize(os.path.join(d, 'features.f32')) // (4 * F) for d in shards]
    X = np.empty((sum(rows), F), dtype=np.float32)
    Y = np.empty((sum(rows), 3), dtype=np.uint8)
    T = None
    if all('token_buckets' in m for m in metas):
        assert len({m['token_buckets'] for m in metas}) == 1, 'shards with different token buckets'
        T = np.concatenate([np.fromfile(os.path.join(d, 'tokens.u16'), dtype=np.uint16).reshape(n, -1) for d, n in zip(shards, rows)])
    exs = []
    base = 0
    for d, n in zip(shards, rows):
        for name, arr in (('features.f32', X), ('labels.u8', Y)):
            with open(os.path.join(d, name), 'rb') as f:
                part = arr[base:base + n]
                assert f.readinto(memoryview(part).cast('B')) == part.nbytes and not f.read(1), f'{d}/{name}: size'
        for line in open(os.path.join(d, 'index.jsonl')):
            e = json.loads(line)
            e['offset'] += base
            exs.append(e)
        base += n
    return exs, X, Y, metas[-1], T


def batches(exs, rng, max_lines, batch_size):
    order = list(range(len(exs)))
    rng.shuffle(order)
    # Bucket by length so padding stays small.
    chunks = [order[i:i + batch_size * 20] for i in range(0, len(order), batch_size * 20)]
    out = []
    for ch in chunks:
        ch.sort(key=lambda i: min(exs[i]['n'], max_lines))
        out += [ch[i:i + batch_size] for i in range(0, len(ch), batch_size)]
    rng.shuffle(out)
    return out


def make_batch(idx, exs, X, Y, rng, max_lines, TK=None):
    items = []
    for i in idx:
        e = exs[i]
        n, off = e['n'], e['offset']
        lo = 0
        if n > max_lines:
            gold = np.nonzero(Y[off:off + n, 0])[0]
            if len(gold):
                a = max(0, gold.max() - max_lines + 1)
                b = min(gold.min(), n - max_lines)
                lo = rng.randint(a, b) if b >= a else max(0, min(gold.min(), n - max_lines))
            else:
                lo = rng.randint(0, n - max_lines)
        m = min(n, max_lines)
        items.append((X[off + lo:off + lo + m], Y[off + lo:off + lo + m], e['doc'], off + lo, e.get('q')))
    L = max(len(it[0]) for it in items)
    B = len(items)
    xb = np.zeros((B, L, X.shape[1]), dtype=np.float32)
    yb = np.zeros((B, L, 3), dtype=np.int64)
    mb = np.zeros((B, L), dtype=np.float32)
    db = np.zeros(B, dtype=np.float32)
    for b, (x, y, d, _, _) in enumerate(items):
        xb[b, :len(x)] = x
        yb[b, :len(y)] = y
        mb[b, :len(x)] = 1
        db[b] = d
    out = [torch.from_numpy(xb), torch.from_numpy(yb), torch.from_numpy(mb), torch.from_numpy(db)]
    if TK is not None:
        lt = np.zeros((B, L, TK.shape[1]), dtype=np.int64)
        Q = max(1, max(len(it[4] or []) for it in items))
        qt = np.zeros((B, Q), dtype=np.int64)
        for b, (x, _, _, start, q) in enumerate(items):
            lt[b, :len(x)] = TK[start:start + len(x)]
            qt[b, :len(q or [])] = q or []
        out += [torch.from_numpy(lt), torch.from_numpy(qt)]
    return out


def losses(model, xb, yb, mb, db, *tok, w_rubric=0.5, w_doc=0.3, w_rank=0.0, pos_weight=5.0):
    sem, dep, gate, doc = model(xb, mb, *tok)
    fused = gate[..., :1] * sem + gate[..., 1:] * dep
    em = torch.stack([sem, dep, fused])  # [3,B,L,2]
    y = torch.stack([yb[..., 1], yb[..., 2], yb[..., 1]])
    nll = crf_nll(em, y, mb, model.trans, model.start, model.end)  # [3,B]
    lines = mb.sum().clamp(min=1)
    ex_w = 0.3 + 0.7 * db  # negatives' CRF losses weigh less
    per = (nll * ex_w).sum(1) / lines
    doc_loss = torch.nn.functional.binary_cross_entropy_with_logits(doc, db)
    total = per[2] + w_rubric * (per[0] + per[1]) + w_doc * doc_loss
    if w_rank > 0:
        # Ranking aid: per-line logistic loss on the fused keep−prune margin, positives up-weighted
        # (the budget keeps the best-ranked lines; the CRF NLL alone is dominated by easy prunes).
        margin = fused[..., 1] - fused[..., 0]
        y = yb[..., 1].float()
        bce = torch.nn.functional.binary_cross_entropy_with_logits(
            margin, y, weight=mb * (1 + (pos_weight - 1) * y), reduction='sum') / mb.sum().clamp(min=1)
        total = total + w_rank * bce
    return total, per.detach(), doc_loss.detach()


@torch.no_grad()
def evaluate(model, exs, X, Y, cost_idx, TK=None, ratios=(4, 8)):
    """Proxy of the bench: rank lines by fused keep-minus-prune, keep to 1/ratio of the chars."""
    model.eval()
    rec = {r: [] for r in ratios}
    doc_ok = []
    for e in exs:
        off, n = e['offset'], e['n']
        x = torch.from_numpy(X[off:off + n]).unsqueeze(0)
        tok = []
        if TK is not None:
            tok = [torch.from_numpy(TK[off:off + n].astype(np.int64)).unsqueeze(0),
                   torch.tensor([e.get('q') or [0]], dtype=torch.long)]
        sem, dep, gate, doc = model(x, None, *tok)
        doc_ok.append(float((doc.item() > 0) == (e['doc'] > 0.5)))
        if e['doc'] < 0.5:
            continue
        fused = (gate[..., :1] * sem + gate[..., 1:] * dep)[0]
        s = (fused[:, 1] - fused[:, 0]).numpy()
        gold = Y[off:off + n, 0] > 0
        if not gold.any():
            continue
        chars = 4 * (np.exp(4 * X[off:off + n, cost_idx].astype(np.float64)) - 1) + 1
        order = np.argsort(-s, kind='stable')
        cum = np.cumsum(chars[order])
        for r in ratios:
            k = np.searchsorted(cum, chars.sum() / r, side='right')
            kept = np.zeros(n, dtype=bool)
            kept[order[:k]] = True
            rec[r].append((kept & gold).sum() / gold.sum())
    model.train()
    out = {f'recall@{r}': float(np.mean(v)) for r, v in rec.items()}
    out['doc_acc'] = float(np.mean(doc_ok))
    return out


def init_token_embeddings(model, words_dir):
    """Token embeddings started from the PPMI+SVD word table: each term's bucket gets its vector."""
    meta = json.load(open(os.path.join(words_dir, 'table.json')))
    keys = np.fromfile(os.path.join(words_dir, 'keys.u32'), dtype='<u4').astype(np.int64)
    vec = np.fromfile(os.path.join(words_dir, 'vectors.i8'), dtype=np.int8).reshape(-1, meta['dim']).astype(np.float32) / 127
    w = model.tokens.emb.weight
    assert w.shape[1] == vec.shape[1], 'token dim must equal the word table dim'
    with torch.no_grad():  # the bucket of a term, as build_dataset.mjs hashes it (0 is padding)
        w[torch.from_numpy(1 + keys % (w.shape[0] - 1))] = torch.from_numpy(vec)
    print(f'token embeddings: {len(keys)} from {words_dir}', flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--work', default=default_work(), help='work folder (default: $CTXPRUNE_TRAIN_DIR, else data/train)')
    ap.add_argument('--minutes', type=float, default=25)
    ap.add_argument('--steps', type=int, default=None,
                    help='train exactly this many steps (cosine over them) instead of for --minutes: the same '
                         'model whatever else the machine is doing')
    ap.add_argument('--seed', type=int, default=7)
    ap.add_argument('--d', type=int, default=64)
    ap.add_argument('--max-lines', type=int, default=384)
    ap.add_argument('--batch', type=int, default=24)
    ap.add_argument('--lr', type=float, default=2e-3)
    ap.add_argument('--eval-every', type=int, default=250)
    ap.add_argument('--w-rank', type=float, default=0.0)
    ap.add_argument('--init', default=None, help='warm start from a checkpoint (continue training)')
    ap.add_argument('--out-name', default='best.pt')
    ap.add_argument('--no-tokens', action='store_true', help='ignore the dataset\'s tokens (a control run)')
    ap.add_argument('--freeze-tokens', action='store_true', help='keep the token embeddings (and query-term weights) as initialised')
    ap.add_argument('--token-dim', type=int, default=48)
    ap.add_argument('--init-words', default=None, help='with tokens: start the embeddings from a word table (pretrain_words.py)')
    ap.add_argument('--smoke', action='store_true', help='validate on the training data (pipeline check only)')
    ap.add_argument('--train-repos', nargs='*', default=None,
                    help='train on these repositories only (of the train split): the data ablations of MODEL_CARD.md')
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    rng = random.Random(args.seed)

    exs, X, Y, meta, TK = load(args.work)
    if args.no_tokens:
        TK = None
    split = dict(REPOS)
    train = [e for e in exs if split.get(e['repo'], 'train') == 'train']
    if args.train_repos is not None:
        unknown = set(args.train_repos) - {e['repo'] for e in train}
        if unknown:
            ap.error(f'--train-repos: not in the training split of this dataset: {sorted(unknown)}')
        train = [e for e in train if e['repo'] in set(args.train_repos)]
    val = [e for e in exs if split.get(e['repo']) == 'val']
    if args.smoke:
        val = train[:50]
    # A fixed sample of the held-out repositories keeps each evaluation short.
    val = random.Random(5).sample(val, min(len(val), 700))
    print(f'{len(train)} train / {len(val)} val examples, {X.shape[0]} rows, {X.shape[1]} features', flush=True)
    from_names = meta.get('names') or json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'feature_names.json')))
    cost_idx = from_names.index(COST_FEATURE)

    model = LineScorer(X.shape[1], d=args.d, tokens=(meta['token_buckets'], args.token_dim) if TK is not None else None)
    if TK is not None and args.init_words:
        init_token_embeddings(model, args.init_words)
    if TK is not None and args.freeze_tokens:
        model.tokens.emb.weight.requires_grad_(False)
        model.tokens.qweight.weight.requires_grad_(False)
    rows = np.concatenate([np.arange(e['offset'], e['offset'] + e['n']) for e in train[::3]])
    mu = X[rows].mean(0)
    sd = X[rows].std(0)
    sd[sd < 1e-3] = 1.0
    model.mu.copy_(torch.from_numpy(mu))
    model.sd.copy_(torch.from_numpy(sd))
    if args.init:
        model.load_state_dict(torch.load(args.init))
    n_params = sum(p.numel() for p in model.parameters())
    print(f'params {n_params}', flush=True)

    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=args.lr, weight_decay=1e-4)
    out_dir = os.path.join(args.work, 'model')
    os.makedirs(out_dir, exist_ok=True)
    log = {'args': vars(args), 'params': n_params, 'train_examples': len(train), 'val_examples': len(val), 'evals': []}
    t0 = time.time()
    deadline = t0 + args.minutes * 60 if args.steps is None else float('inf')
    best = -1.0
    step = 0
    epoch = 0
    # Steps for cosine decay: estimate from the first epoch's speed lazily.
    total_steps = args.steps
    done = False
    while not done:
        epoch += 1
        for idx in batches(train, rng, args.max_lines, args.batch):
            loss, per, dl = losses(model, *make_batch(idx, train, X, Y, rng, args.max_lines, TK), w_rank=args.w_rank)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            if step == 50 and args.steps is None:
                spd = (time.time() - t0) / 50
                total_steps = int(args.minutes * 60 / spd)
                print(f'{spd:.2f} s/step -> ~{total_steps} steps', flush=True)
            if total_steps:
                frac = min(1.0, step / total_steps)
                for g in opt.param_groups:
                    g['lr'] = args.lr * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * frac)))
            if step % 25 == 0:
                print(f'step {step} ep {epoch} loss {loss.item():.4f} sem {per[0]:.4f} dep {per[1]:.4f} '
                      f'fused {per[2]:.4f} doc {dl:.3f} {time.time() - t0:.0f}s', flush=True)
            last = time.time() > deadline or (args.steps is not None and step >= args.steps)
            if step % args.eval_every == 0 or last:
                ev = evaluate(model, val, X, Y, cost_idx, TK)
                score = ev['recall@4'] + ev['recall@8']
                ev.update(step=step, epoch=epoch, seconds=round(time.time() - t0))
                log['evals'].append(ev)
                tag = ''
                if score > best:
                    best = score
                    torch.save(model.state_dict(), os.path.join(out_dir, args.out_name))
                    tag = ' *'
                print(f'eval {ev}{tag}', flush=True)
            if last:
                done = True
                break
    log['seconds'] = round(time.time() - t0)
    log['steps'] = step
    log['best'] = best
    log_name = 'train_log.json' if args.out_name == 'best.pt' else args.out_name.replace('.pt', '_log.json')
    json.dump(log, open(os.path.join(out_dir, log_name), 'w'), indent=1)
    print(f'done: {step} steps, {log["seconds"]} s, best val {best:.4f}')


if __name__ == '__main__':
    main()
