// @ts-check
/**
 * Default locations of the training scripts (the same as training/paths.py): the work folder is
 * --work, else $CTXPRUNE_TRAIN_DIR, else data/train in this repository (git-ignored).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The training work folder when --work is not given. */
export function defaultWork() {
  return process.env.CTXPRUNE_TRAIN_DIR || path.join(REPO, 'data', 'train');
}
