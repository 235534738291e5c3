import type { AssetConfig } from '@ctxprune/core';

export interface PackParams {
  task: string;
  budget: number;
  lineNumbers: boolean;
}

export interface PackFileRow {
  path: string;
  kept: number;
  total: number;
  tokens: number;
  whole: boolean;
  prior: number;
}

export interface PackView {
  text: string;
  tokens: number;
  budget: number;
  ms: number;
  files: PackFileRow[];
  map: number;
  ranked: string[];
  excluded: number;
  degraded: string[];
}

export interface PackRequest {
  id: number;
  params: PackParams;
  assets?: Partial<AssetConfig>;
}

export type PackReply =
  | { id: number; ok: true; view: PackView }
  | { id: number; ok: false; superseded: true }
  | { id: number; ok: false; superseded?: undefined; error: { message: string; code?: string } };

export const PACK_BUDGET = { min: 100, max: 4000, step: 50, initial: 1200 } as const;
