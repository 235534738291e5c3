/**
 * The view's state in the URL (query string), so that a link reproduces it. Code travels only
 * when it is small and not a sample; a large paste keeps the link to its settings.
 */
import { ELISION_STYLES, type ElisionStyle } from '@ctxprune/core';
import { ENGINE_CHOICES, type EngineChoice } from '@ctxprune/core/worker';

export type Layer = 'semantic' | 'dependency' | 'gate' | 'keep' | 'off';
export const LAYERS: Layer[] = ['semantic', 'dependency', 'gate', 'keep', 'off'];

export interface ViewState {
  sample: string | null;
  code: string | null;
  fileName: string | null;
  language: string; // 'auto' or a LanguageId
  query: string;
  ratio: number;
  tokens: number | null;
  engine: EngineChoice;
  /** How an elided run reads in the pruned text: `# …`, or with its line range. */
  elision: ElisionStyle;
  layer: Layer;
}

/** Code longer than this (characters) is not put in the URL. */
export const MAX_URL_CODE_CHARS = 4000;

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): string | null {
  try {
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return null;
  }
}

export function clampRatio(r: number): number {
  if (!Number.isFinite(r)) return 4;
  return Math.min(16, Math.max(1, Math.round(r * 2) / 2));
}

export function readUrlState(search: string): Partial<ViewState> {
  const p = new URLSearchParams(search);
  const out: Partial<ViewState> = {};
  if (p.has('sample')) out.sample = p.get('sample');
  const code = p.get('code');
  if (code) {
    const decoded = fromBase64Url(code);
    if (decoded !== null) out.code = decoded;
  }
  if (p.has('file')) out.fileName = p.get('file');
  if (p.has('lang')) out.language = p.get('lang') || 'auto';
  if (p.has('q')) out.query = p.get('q') ?? '';
  if (p.has('ratio')) out.ratio = clampRatio(Number(p.get('ratio')));
  const t = Number(p.get('tokens'));
  if (p.has('tokens') && Number.isFinite(t) && t > 0) out.tokens = Math.floor(t);
  const e = p.get('engine') as EngineChoice | null;
  if (e && ENGINE_CHOICES.includes(e)) out.engine = e;
  const m = p.get('markers') as ElisionStyle | null;
  if (m && ELISION_STYLES.includes(m)) out.elision = m;
  const l = p.get('layer') as Layer | null;
  if (l && LAYERS.includes(l)) out.layer = l;
  return out;
}

/** Returns the query string, and whether the code had to be left out. */
export function writeUrlState(s: ViewState, sampleCode: string | null): { search: string; codeOmitted: boolean } {
  const p = new URLSearchParams();
  let codeOmitted = false;
  if (s.sample && s.code === sampleCode) p.set('sample', s.sample);
  else if (s.code !== null) {
    if (s.code.length <= MAX_URL_CODE_CHARS) p.set('code', toBase64Url(s.code));
    else codeOmitted = true;
    if (s.fileName) p.set('file', s.fileName);
  }
  if (s.language !== 'auto') p.set('lang', s.language);
  if (s.query) p.set('q', s.query);
  if (s.tokens !== null) p.set('tokens', String(s.tokens));
  else p.set('ratio', String(s.ratio));
  if (s.engine !== 'auto') p.set('engine', s.engine);
  if (s.elision !== 'bare') p.set('markers', s.elision);
  if (s.layer !== 'keep') p.set('layer', s.layer);
  return { search: '?' + p.toString(), codeOmitted };
}
