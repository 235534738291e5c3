/**
 * Per-line heatmap layers on the original side of the diff: Monaco decorations whose classes
 * (hm-<layer>-<bucket>) carry the colour, a gutter bar for why a line was kept, dimmed text for
 * pruned lines, and a hover with the reason and all four scores.
 */
import type { editor } from 'monaco-editor/editor/editor.api';
import type { KeepReason, LineInfo } from '@ctxprune/core';
import type { Layer } from './urlState';

export const BUCKETS = 10;

type RGB = [number, number, number];

export interface LayerInfo {
  id: Exclude<Layer, 'off'>;
  label: string;
  /** What the number means, for the legend. */
  description: string;
  low: string;
  high: string;
  colorAt(v: number): string;
}

const mix = (a: RGB, b: RGB, t: number): RGB => [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * t)) as RGB;
const rgba = (c: RGB, a: number) => `rgba(${c[0]}, ${c[1]}, ${c[2]}, ${a.toFixed(3)})`;

/** Transparent at 0 so that low scores recede; a gentle curve keeps mid values readable. */
function sequential(c: RGB) {
  return (v: number) => rgba(c, 0.7 * Math.pow(Math.max(0, Math.min(1, v)), 0.75));
}

const BLUE: RGB = [56, 139, 253];
const VIOLET: RGB = [188, 110, 255];
const AMBER: RGB = [240, 160, 40];
const GREEN: RGB = [46, 200, 110];

export const LAYER_INFO: Record<Exclude<Layer, 'off'>, LayerInfo> = {
  semantic: {
    id: 'semantic',
    label: 'Semantic',
    description: 'P(keep) under the semantic-evidence head: lines that answer the query.',
    low: 'irrelevant',
    high: 'answers the query',
    colorAt: sequential(BLUE),
  },
  dependency: {
    id: 'dependency',
    label: 'Dependency',
    description: 'P(keep) under the dependency-support head: imports, headers and definitions the evidence needs.',
    low: 'unneeded',
    high: 'needed by evidence',
    colorAt: sequential(VIOLET),
  },
  gate: {
    id: 'gate',
    label: 'Gate',
    description: 'Gate weight of the semantic rubric: 1 = the evidence head decides, 0 = the dependency head decides.',
    low: 'dependency head',
    high: 'semantic head',
    colorAt: (v) => rgba(mix(AMBER, BLUE, v), 0.06 + 0.45 * Math.abs(v - 0.5) * 2),
  },
  keep: {
    id: 'keep',
    label: 'Keep',
    description: 'Keep marginal: P(keep) under the fused CRF at the calibrated budget.',
    low: 'pruned',
    high: 'kept',
    colorAt: sequential(GREEN),
  },
};

export const REASON_TEXT: Record<KeepReason, string> = {
  evidence: 'evidence: the line answers the query',
  dependency: 'dependency: an import, enclosing header or definition that evidence lines use',
  repair: 'repair: re-inserted so that the pruned code still parses',
};

export const REASON_COLOR: Record<KeepReason, string> = {
  evidence: '#4ea1ff',
  dependency: '#bc6eff',
  repair: '#f0a028',
};

let injected = false;
/** One stylesheet with every layer × bucket class, built from the same colour functions as the legend. */
export function injectHeatmapStyles(): void {
  if (injected || typeof document === 'undefined') return;
  injected = true;
  const rules: string[] = [];
  for (const info of Object.values(LAYER_INFO)) {
    for (let b = 0; b < BUCKETS; b++) {
      const v = (b + 0.5) / BUCKETS;
      rules.push(`.monaco-editor .hm-${info.id}-${b} { background: ${info.colorAt(v)}; }`);
    }
  }
  for (const [r, c] of Object.entries(REASON_COLOR)) {
    rules.push(`.monaco-editor .keep-mark.keep-${r} { background: ${c}; }`);
  }
  const style = document.createElement('style');
  style.dataset.ctxprune = 'heatmap';
  style.textContent = rules.join('\n');
  document.head.appendChild(style);
}

/**
 * The colour scale of a layer for one result: each layer, the gate included, spans what it
 * shows (this file's min..max: a gate of 0.88–0.996 on a fixed 0–1 scale was one flat colour);
 * a flat layer stays on the absolute 0–1 scale. The legend says which.
 */
export interface Scale {
  min: number;
  max: number;
  relative: boolean;
}

export function layerScale(lines: LineInfo[], layer: Layer): Scale {
  if (layer === 'off' || lines.length === 0) return { min: 0, max: 1, relative: false };
  let min = Infinity;
  let max = -Infinity;
  for (const li of lines) {
    const v = li[layer];
    if (Number.isFinite(v)) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  // A flat layer stays on the absolute scale (stretching noise would invent contrast).
  if (!(max - min >= 0.02)) return { min: 0, max: 1, relative: false };
  return { min, max, relative: true };
}

export function normalize(v: number, s: Scale): number {
  return (v - s.min) / (s.max - s.min);
}

export function bucketOf(v: number): number {
  if (!Number.isFinite(v)) return 0;
  return Math.max(0, Math.min(BUCKETS - 1, Math.floor(v * BUCKETS)));
}

const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '–');

/** The hover: why the line was kept (the line it was kept for) before its scores. */
export function hoverMarkdown(li: LineInfo, why?: string): string {
  const head = li.kept && li.reason ? `**Line ${li.line} — kept: ${why ?? REASON_TEXT[li.reason]}**` : `**Line ${li.line} — pruned**`;
  const note =
    li.kept && li.reason === 'repair'
      ? '\n\nKept by the repair whatever its own scores, which are:'
      : li.kept && li.reason === 'dependency' && why
        ? '\n\nKept as what a kept line needs; its own scores:'
        : '';
  return (
    `${head}${note}\n\n` +
    `| semantic | dependency | gate | keep |\n|---:|---:|---:|---:|\n` +
    `| ${fmt(li.semantic)} | ${fmt(li.dependency)} | ${fmt(li.gate)} | ${fmt(li.keep)} |`
  );
}

/** Decorations for one result on a model (lines beyond the model's end are skipped). */
export function heatmapDecorations(
  lines: LineInfo[],
  layer: Layer,
  model: editor.ITextModel,
  scale: Scale = layerScale(lines, layer),
  why: ReadonlyMap<number, string> = new Map(),
): editor.IModelDeltaDecoration[] {
  const out: editor.IModelDeltaDecoration[] = [];
  const lineCount = model.getLineCount();
  for (const li of lines) {
    if (li.line < 1 || li.line > lineCount) continue;
    const endCol = model.getLineMaxColumn(li.line);
    const v = layer === 'off' ? 0 : normalize(li[layer], scale);
    out.push({
      range: { startLineNumber: li.line, startColumn: 1, endLineNumber: li.line, endColumn: endCol },
      options: {
        isWholeLine: true,
        className: layer === 'off' ? undefined : `hm hm-${layer}-${bucketOf(v)}`,
        linesDecorationsClassName: li.kept && li.reason ? `keep-mark keep-${li.reason}` : 'keep-mark keep-none',
        inlineClassName: li.kept ? undefined : 'pruned-text',
        hoverMessage: { value: hoverMarkdown(li, why.get(li.line)) },
        overviewRuler: li.kept && li.reason ? { color: REASON_COLOR[li.reason], position: 1 /* Left */ } : undefined,
      },
    });
  }
  return out;
}
