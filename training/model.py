"""LaMR line scorer: per-line interaction features -> dilated residual convolutions over lines ->
multi-layer fusion -> K=2 rubric emission heads + per-line gate + document score; CRFs per rubric
and a fused CRF (2 states: 0 prune, 1 keep)."""
import torch
import torch.nn as nn
import torch.nn.functional as Fn


class Block(nn.Module):
    def __init__(self, d: int, dilation: int, kernel: int = 5):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.conv = nn.Conv1d(d, d, kernel, dilation=dilation, padding=dilation * (kernel // 2))
        self.mix = nn.Linear(d, d)

    def forward(self, h, mask):  # h [B, L, d], mask [B, L, 1]
        y = self.norm(h) * mask
        y = self.conv(y.transpose(1, 2)).transpose(1, 2)
        y = self.mix(Fn.gelu(y))
        return (h + y) * mask


class TokenInteraction(nn.Module):
    """Reads the hashed terms of the query and of each line (experiment, issue #18): learned
    embeddings, per query term its best cosine with the line's terms, pooled over the query with
    learned term weights (mean, max, weighted), plus the line's own bag of terms projected small
    (what kind of line it is, whatever the query)."""
    OUT = 3 + 8

    def __init__(self, buckets: int, dim: int):
        super().__init__()
        self.emb = nn.Embedding(buckets, dim, padding_idx=0)
        nn.init.normal_(self.emb.weight, std=0.3)
        self.qweight = nn.Embedding(buckets, 1, padding_idx=0)
        nn.init.zeros_(self.qweight.weight)
        self.bag = nn.Linear(dim, 8)

    def forward(self, lt, qt):  # lt [B, L, T] long, qt [B, Q] long -> [B, L, OUT]
        le = Fn.normalize(self.emb(lt), dim=-1)
        qe = Fn.normalize(self.emb(qt), dim=-1)
        lmask = (lt > 0).float()
        qmask = (qt > 0).float()
        sim = torch.einsum('bqd,bltd->blqt', qe, le)
        sim = sim - 4.0 * (1 - lmask).unsqueeze(2)
        best = sim.max(-1).values.clamp(min=0) * (lmask.sum(-1, keepdim=True) > 0).float()  # [B,L,Q]
        qn = qmask.sum(-1).clamp(min=1)  # [B]
        mean = (best * qmask[:, None, :]).sum(-1) / qn[:, None]
        mx = (best - 2.0 * (1 - qmask[:, None, :])).max(-1).values.clamp(min=0)
        w = self.qweight(qt).squeeze(-1) - 1e4 * (1 - qmask)
        w = torch.softmax(w, dim=-1) * (qmask.sum(-1, keepdim=True) > 0).float()
        weighted = (best * w[:, None, :]).sum(-1)
        bag = (le * lmask.unsqueeze(-1)).sum(2) / lmask.sum(-1, keepdim=True).clamp(min=1)
        return torch.cat([torch.stack([mean, mx, weighted], -1), torch.tanh(self.bag(bag))], -1)


class LineScorer(nn.Module):
    def __init__(self, n_features: int, d: int = 64, dilations=(1, 2, 4, 8, 16, 1), kernel: int = 5, tokens=None):
        super().__init__()
        self.register_buffer('mu', torch.zeros(n_features))
        self.register_buffer('sd', torch.ones(n_features))
        self.tokens = TokenInteraction(*tokens) if tokens else None
        self.proj = nn.Linear(n_features + (TokenInteraction.OUT if tokens else 0), d)
        self.blocks = nn.ModuleList(Block(d, dl, kernel) for dl in dilations)
        nb = len(dilations)
        self.taps = (0, nb // 2 - 1, nb - 1)  # early, middle, final hidden states
        self.fuse = nn.Linear(d * len(self.taps) + d, d)
        self.norm = nn.LayerNorm(d)
        self.sem = nn.Linear(d, 2)
        self.dep = nn.Linear(d, 2)
        self.gate = nn.Linear(d, 2)
        self.doc = nn.Linear(2 * d, 1)
        # CRFs: 0 semantic, 1 dependency, 2 fused. transitions[from, to], start, end.
        self.trans = nn.Parameter(torch.tensor([[[0.5, -0.5], [-0.5, 0.5]],
                                                [[0.1, -0.1], [-0.1, 0.1]],
                                                [[0.3, -0.3], [-0.3, 0.3]]]))
        self.start = nn.Parameter(torch.zeros(3, 2))
        self.end = nn.Parameter(torch.zeros(3, 2))
        self.receptive = sum(dl * (kernel // 2) for dl in dilations)

    def forward(self, x, mask=None, lt=None, qt=None):
        """x [B, L, F] raw features; mask [B, L] (1 = real line); with tokens, lt [B, L, T] and
        qt [B, Q] hashed terms. Returns emissions, gate, doc logit."""
        if mask is None:
            mask = torch.ones(x.shape[0], x.shape[1], dtype=x.dtype)
        m = mask.unsqueeze(-1)
        z = (x - self.mu) / self.sd
        if self.tokens is not None:
            z = torch.cat([z, self.tokens(lt, qt)], -1)
        h = Fn.gelu(self.proj(z)) * m
        h0 = h
        taps = []
        for i, blk in enumerate(self.blocks):
            h = blk(h, m)
            if i in self.taps:
                taps.append(h)
        u = self.norm(Fn.gelu(self.fuse(torch.cat(taps + [h0], dim=-1)))) * m
        sem = self.sem(u)
        dep = self.dep(u)
        gate = torch.softmax(self.gate(u), dim=-1)
        denom = m.sum(1).clamp(min=1.0)
        pooled = torch.cat([(u * m).sum(1) / denom, (u + (m - 1) * 1e4).max(1).values], dim=-1)
        doc = self.doc(pooled).squeeze(-1)
        return sem, dep, gate, doc

    def crf_table(self):
        """[3, 8]: per CRF (semantic, dependency, fused) transitions (row-major from→to), start, end."""
        return torch.cat([self.trans.reshape(3, 4), self.start, self.end], dim=1)


def crf_nll(em, y, mask, trans, start, end):
    """Batched linear-chain CRF NLL. em [C, B, L, 2], y [C, B, L] long, mask [B, L] float,
    trans [C, 2, 2], start/end [C, 2]. Returns NLL [C, B]. Sequences are left-aligned."""
    C, B, L, _ = em.shape
    lengths = mask.sum(1).long()  # [B]
    # Gold path score.
    e_gold = em.gather(-1, y.unsqueeze(-1)).squeeze(-1)  # [C,B,L]
    score = (e_gold * mask).sum(-1)
    score = score + start.gather(1, y[:, :, 0])  # [C,B]
    if L > 1:
        tr = trans[:, None, :, :].expand(C, B, 2, 2)
        prev, nxt = y[:, :, :-1], y[:, :, 1:]
        idx = (prev * 2 + nxt)
        t_gold = tr.reshape(C, B, 4).gather(-1, idx)  # [C,B,L-1]
        score = score + (t_gold * mask[:, 1:]).sum(-1)
    last = y.gather(-1, (lengths - 1).clamp(min=0).view(1, B, 1).expand(C, B, 1)).squeeze(-1)
    score = score + end.gather(1, last)
    # Partition function.
    alpha = start[:, None, :] + em[:, :, 0, :]  # [C,B,2]
    T = trans[:, None, :, :]  # [C,1,2,2]
    for t in range(1, L):
        nxt = torch.logsumexp(alpha.unsqueeze(-1) + T, dim=-2) + em[:, :, t, :]
        mt = mask[:, t].view(1, B, 1)
        alpha = torch.where(mt > 0, nxt, alpha)
    logz = torch.logsumexp(alpha + end[:, None, :], dim=-1)
    return logz - score


def crf_marginal_keep(em, trans, start, end):
    """P(keep) per line for one sequence: em [L, 2], trans [2,2]. (for validation)"""
    L = em.shape[0]
    alpha = torch.empty(L, 2)
    beta = torch.empty(L, 2)
    alpha[0] = start + em[0]
    for t in range(1, L):
        alpha[t] = torch.logsumexp(alpha[t - 1].unsqueeze(-1) + trans, dim=0) + em[t]
    beta[L - 1] = end
    for t in range(L - 2, -1, -1):
        beta[t] = torch.logsumexp(trans + (em[t + 1] + beta[t + 1]).unsqueeze(0), dim=1)
    logp = alpha + beta
    return torch.softmax(logp, dim=-1)[:, 1]
