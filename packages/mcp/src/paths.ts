/**
 * Confinement to the root the server was started with: no `..` segments, absolute paths only
 * when inside the root, and symlinks resolved (realpath) before the check, so a link inside the
 * root that points outside is refused too.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export class PathRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathRefused';
  }
}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && rel.split(sep)[0] !== '..');
}

/**
 * The real path of `p` (relative to `realRoot`, or absolute) when it exists inside the root.
 * Throws PathRefused (outside / `..` / escape) or the fs error (ENOENT...).
 */
export async function resolveInside(realRoot: string, p: string): Promise<{ real: string; rel: string }> {
  if (p.includes('\0')) throw new PathRefused('path contains a NUL byte');
  const segments = p.split(/[\\/]+/);
  if (segments.includes('..')) throw new PathRefused(`"${p}" contains "..": paths must stay under the root`);
  const candidate = resolve(realRoot, p === '' ? '.' : p);
  if (!inside(realRoot, candidate)) throw new PathRefused(`"${p}" is outside the root ${realRoot}`);
  const real = await realpath(candidate);
  if (!inside(realRoot, real)) throw new PathRefused(`"${p}" resolves (through a symlink) outside the root`);
  return { real, rel: relative(realRoot, real).split(sep).join('/') || '.' };
}
