"""Recover a torch checkpoint from an exported single-model graph (models/ctxprune-lamr.onnx), so that
train.py --init can warm-start from the shipped weights: the shipped checkpoint itself is not
committed, and retraining it from scratch gives a different model (seeds and feature drift move the
validation numbers by 0.01-0.02, models/MODEL_CARD.md).

  /usr/bin/python3 training/recover_checkpoint.py --out shipped.pt \
      [--model models/ctxprune-lamr.onnx] [--parity packages/core/test/runtime/fixtures]

export.py names the module's parameters `m.<name>` in the graph (`members.0.<name>` in newer
exports), except the Linear weights, which constant folding turns into anonymous MatMul operands
(transposed): each is recognised by the bias added to its product. The CRF table is one folded
[3, 8] constant. With --parity (by default the folder export.py wrote for the shipped model) the
recovered module must reproduce the reference outputs stored there, or the script fails: a
recovered model is the exported one, not an approximation.
"""
import argparse
import json
import os
import sys

import numpy as np
import onnx
import onnx.numpy_helper as nh
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export import Exported, reference_outputs  # noqa: E402
from model import LineScorer  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..')


def recover(path: str) -> LineScorer:
    graph = onnx.load(path).graph
    inits = {i.name: nh.to_array(i) for i in graph.initializer}
    consts = {n.output[0]: nh.to_array(a.t) for n in graph.node if n.op_type == 'Constant' for a in n.attribute if a.name == 'value'}
    # The module's prefix: `m.` in the shipped graph, `members.0.` since export.py took ensembles.
    prefixes = [k[:-len('proj.bias')] for k in inits if k.endswith('proj.bias')]
    if len(prefixes) != 1:
        raise SystemExit(f'{path}: expected one model in the graph, found {len(prefixes)} (an ensemble: recover each member from its own export)')
    pre = prefixes[0]
    model = LineScorer(inits[pre + 'mu'].shape[0], d=inits[pre + 'proj.bias'].shape[0])
    want = model.state_dict()
    state = {k: torch.from_numpy(inits[pre + k].copy()) for k in want if pre + k in inits}
    consumers: dict = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    for node in graph.node:
        if node.op_type != 'MatMul' or node.input[1] not in inits:
            continue
        biases = {i for c in consumers.get(node.output[0], []) if c.op_type == 'Add' for i in c.input if i.startswith(pre) and i.endswith('.bias')}
        if len(biases) != 1:
            raise SystemExit(f'{path}: cannot tell which layer MatMul {node.name} belongs to ({sorted(biases)})')
        key = biases.pop()[len(pre):-len('.bias')] + '.weight'
        state[key] = torch.from_numpy(inits[node.input[1]].T.copy())
    tables = [v for v in list(inits.values()) + list(consts.values()) if v.shape == (3, 8)]
    if len(tables) != 1:
        raise SystemExit(f'{path}: expected one [3, 8] CRF table, found {len(tables)}')
    crf = torch.from_numpy(tables[0].copy())
    state['trans'], state['start'], state['end'] = crf[:, :4].reshape(3, 2, 2), crf[:, 4:6], crf[:, 6:8]
    missing = sorted(set(want) - set(state))
    if missing:
        raise SystemExit(f'{path}: no value for {", ".join(missing)}')
    model.load_state_dict(state)
    model.eval()
    return model


def check_parity(model: LineScorer, folder: str) -> float:
    """Largest absolute difference from the reference outputs export.py wrote in `folder`."""
    ref = json.load(open(os.path.join(folder, 'torch-outputs.json')))
    got = reference_outputs(Exported([model], int(ref['info'][1])), os.path.join(folder, 'features.f32'), ref['f'])
    return max(float(np.abs(np.asarray(got[k], dtype=np.float64) - np.asarray(ref[k], dtype=np.float64)).max())
               for k in ('semantic', 'dependency', 'gate', 'doc', 'crf', 'info'))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--model', default=os.path.join(ROOT, 'models', 'ctxprune-lamr.onnx'))
    ap.add_argument('--out', required=True, help='where to write the checkpoint (a state dict, as train.py saves)')
    ap.add_argument('--parity', default=os.path.join(ROOT, 'packages', 'core', 'test', 'runtime', 'fixtures'),
                    help="export.py's reference outputs for this model; '' skips the check")
    ap.add_argument('--tolerance', type=float, default=1e-4)
    args = ap.parse_args()
    torch.set_num_threads(1)
    model = recover(args.model)
    if args.parity:
        diff = check_parity(model, args.parity)
        if diff > args.tolerance:
            raise SystemExit(f'{args.model}: recovered outputs differ from {args.parity} by {diff:.2e} (> {args.tolerance})')
        print(f'parity with {os.path.relpath(args.parity)}: max |diff| {diff:.2e}')
    torch.save(model.state_dict(), args.out)
    print(f'wrote {args.out} ({sum(p.numel() for p in model.parameters())} parameters)')


if __name__ == '__main__':
    main()
