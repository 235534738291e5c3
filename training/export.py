#!/usr/bin/python3
"""Export the selected checkpoint to ONNX (opset 17) with the ctxprune 'lamr-lines-v1' contract
(packages/core/src/runtime/contract.ts), and write the torch reference outputs for the parity test.

  /usr/bin/python3 training/export.py --work DIR --out models/ctxprune-lamr.onnx \
      --parity packages/core/test/runtime/fixtures

--checkpoint A.pt,B.pt,… exports a seed ensemble as one graph: the members' emissions, gates,
document scores and CRF tables are averaged (the same contract, so the runtime does not know).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import onnx
import onnx.numpy_helper
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import LineScorer  # noqa: E402
from paths import default_work  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def core_commit() -> str:
    """HEAD of this checkout, '+dirty' when packages/core or training/ has uncommitted changes."""
    git = ['git', '-C', os.path.join(HERE, '..')]
    try:
        head = subprocess.run(git + ['rev-parse', 'HEAD'], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(git + ['status', '--porcelain', '--', 'packages/core/src', 'training'], capture_output=True, text=True).stdout.strip()
        return head + ('+dirty' if dirty else '')
    except (OSError, subprocess.CalledProcessError):
        return 'unknown'


class Exported(torch.nn.Module):
    def __init__(self, members: list, feature_version: int):
        super().__init__()
        self.members = torch.nn.ModuleList(members)
        self.feature_version = feature_version
        self.receptive = max(m.receptive for m in members)

    def forward(self, features):
        mask = torch.ones_like(features[:, :, 0])
        outs = [m(features, mask) for m in self.members]
        k = float(len(outs))
        sem = sum(o[0] for o in outs) / k
        dep = sum(o[1] for o in outs) / k
        gate = sum(o[2] for o in outs) / k
        doc = sum(torch.sigmoid(o[3]) for o in outs) / k
        crf = sum(m.crf_table() for m in self.members) / k
        info = torch.tensor([1.0, float(self.feature_version), float(features.shape[2]), float(self.receptive)])
        return sem, dep, gate, doc, crf, info


def reference_outputs(wrapped: Exported, features_path: str, n_features: int) -> dict:
    """The graph's outputs in torch on a feature file: the parity reference (torch-outputs.json)."""
    x = torch.from_numpy(np.fromfile(features_path, dtype=np.float32).reshape(1, -1, n_features))
    with torch.no_grad():
        sem, dep, gate, doc, crf, info = wrapped(x)
    return {'n': int(x.shape[1]), 'f': n_features,
            'semantic': sem[0].reshape(-1).tolist(), 'dependency': dep[0].reshape(-1).tolist(),
            'gate': gate[0].reshape(-1).tolist(), 'doc': float(doc[0]), 'crf': crf.reshape(-1).tolist(),
            'info': info.tolist()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--work', default=default_work(), help='work folder (default: $CTXPRUNE_TRAIN_DIR, else data/train)')
    ap.add_argument('--out', default=os.path.join(HERE, '..', 'models', 'ctxprune-lamr.onnx'))
    # Only the shipped model's export writes the parity reference: a candidate's must not replace it.
    ap.add_argument('--parity', default=None, help='write torch reference outputs here (packages/core/test/runtime/fixtures)')
    ap.add_argument('--features-fixture', default=os.path.join(HERE, '..', 'packages', 'core', 'test', 'features', 'fixtures'))
    ap.add_argument('--checkpoint', default=None, help='a checkpoint, or several joined by commas (a seed ensemble)')
    ap.add_argument('--words', default=None, help='word table dir (training/pretrain_words.py); default WORK/words for feature version >= 2')
    args = ap.parse_args()
    torch.set_num_threads(1)
    meta = json.load(open(os.path.join(args.work, 'dataset', 'shard0', 'meta.json')))
    names = meta.get('names') or json.load(open(os.path.join(HERE, 'feature_names.json')))
    members = []
    for path in (args.checkpoint or os.path.join(args.work, 'model', 'best.pt')).split(','):
        state = torch.load(path)
        m = LineScorer(len(names), d=state['proj.weight'].shape[0])
        m.load_state_dict(state)
        m.eval()
        members.append(m)
    wrapped = Exported(members, meta['version'])
    dummy = torch.randn(1, 300, len(names))
    outputs = ['semantic', 'dependency', 'gate', 'doc', 'crf', 'info']
    torch.onnx.export(wrapped, (dummy,), args.out, opset_version=17, input_names=['features'], output_names=outputs,
                      dynamic_axes={'features': {1: 'n_lines'}, 'semantic': {1: 'n_lines'},
                                    'dependency': {1: 'n_lines'}, 'gate': {1: 'n_lines'}},
                      do_constant_folding=True)
    model = onnx.load(args.out)
    # Constant-folded outputs (the CRF table) come out under a node id: route them to their contract name.
    for i, want in enumerate(outputs):
        got = model.graph.output[i].name
        if got != want:
            model.graph.node.append(onnx.helper.make_node('Identity', [got], [want], name=f'{want}_out'))
            model.graph.output[i].name = want
    if meta['version'] >= 2:
        # The word table rides in the model as two constant outputs (contract.ts WORD_OUTPUTS).
        wd = args.words or os.path.join(args.work, 'words')
        table = json.load(open(os.path.join(wd, 'table.json')))
        keys = np.fromfile(os.path.join(wd, 'keys.u32'), dtype='<u4').view('<i4')
        vecs = np.fromfile(os.path.join(wd, 'vectors.i8'), dtype=np.int8).reshape(table['size'], table['dim'])
        for name, arr in (('word_keys', keys), ('words', vecs)):
            model.graph.initializer.append(onnx.numpy_helper.from_array(arr, name=f'{name}_table'))
            model.graph.node.append(onnx.helper.make_node('Identity', [f'{name}_table'], [name], name=f'{name}_out'))
            elem = onnx.TensorProto.INT32 if name == 'word_keys' else onnx.TensorProto.INT8
            model.graph.output.append(onnx.helper.make_tensor_value_info(name, elem, list(arr.shape)))
    props = {
        'ctxprune.contract': 'lamr-lines-v1',
        'ctxprune.feature_version': str(meta['version']),
        'ctxprune.feature_names': json.dumps(names),
        'ctxprune.receptive_field': str(wrapped.receptive),
        'ctxprune.window': '4096',
        'ctxprune.params': str(sum(p.numel() for p in wrapped.parameters())),
        'ctxprune.members': str(len(members)),
        # What produced it: the checkout whose packages/core computed the features, and its state.
        'ctxprune.core_commit': core_commit(),
    }
    for k, v in props.items():
        e = model.metadata_props.add()
        e.key, e.value = k, v
    onnx.checker.check_model(model)
    onnx.save(model, args.out)
    print(f'wrote {args.out} ({os.path.getsize(args.out)} bytes)')

    # Torch reference outputs on the committed feature fixture, for the Node parity test.
    fx = os.path.join(args.features_fixture, 'features.f32')
    if args.parity and os.path.exists(fx):
        os.makedirs(args.parity, exist_ok=True)
        ref = reference_outputs(wrapped, fx, len(names))
        with open(os.path.join(args.parity, 'torch-outputs.json'), 'w') as f:
            json.dump(ref, f)
        # The input beside the outputs: the parity test reads both from one folder, so a later change
        # of the feature code (the features fixture) cannot part the reference from its input.
        shutil.copyfile(fx, os.path.join(args.parity, 'features.f32'))
        print(f'parity reference: {ref["n"]} lines')


if __name__ == '__main__':
    main()
