import { mkdtempSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskOverflowStore, defaultStateDir } from '../../src/compaction/disk-store.js';
import { OverflowStore } from '../../src/compaction/store.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'ctxprune-disk-'));

describe('DiskOverflowStore', () => {
  it('the documented state directory: CTXPRUNE_STATE_DIR, then XDG_STATE_HOME, then ~/.local/state', () => {
    expect(defaultStateDir({ CTXPRUNE_STATE_DIR: '/s', XDG_STATE_HOME: '/x', HOME: '/h' })).toBe('/s');
    expect(defaultStateDir({ XDG_STATE_HOME: '/x' })).toBe(join('/x', 'ctxprune', 'overflow'));
    expect(defaultStateDir({}, '/h')).toBe(join('/h', '.local', 'state', 'ctxprune', 'overflow'));
    expect(defaultStateDir({})).toMatch(/\.local[/\\]state[/\\]ctxprune[/\\]overflow$/);
  });

  it('saves a compaction store and answers each key byte for byte, across instances', () => {
    const dir = fresh();
    const mem = new OverflowStore();
    const a = mem.put('t1', 'line one\r\n\tcafé ☕\nno final newline');
    const b = mem.put('t2', '');
    expect(new DiskOverflowStore({ dir }).save(mem).sort()).toEqual([a, b].sort());
    const other = new DiskOverflowStore({ dir });
    expect(other.get(a)).toBe('line one\r\n\tcafé ☕\nno final newline');
    expect(other.get(b)).toBe('');
    expect(other.get('ovf_00000000')).toBeUndefined();
  });

  it('refuses anything that is not a key (no path can be named)', () => {
    const s = new DiskOverflowStore({ dir: fresh() });
    for (const k of ['../x', 'ovf_1234', 'ovf_0123456g', 'ovf_01234567/..', '']) {
      expect(() => s.get(k)).toThrow(/not an overflow key/);
    }
  });

  it('expires entries older than ttlMs and keeps the total under maxBytes, least recently used first', () => {
    const dir = fresh();
    const s = new DiskOverflowStore({ dir, ttlMs: 60_000, maxBytes: 25 });
    s.put('ovf_00000001', 'a'.repeat(10));
    s.put('ovf_00000002', 'b'.repeat(10));
    const old = new Date(Date.now() - 120_000);
    utimesSync(join(dir, 'ovf_00000001.txt'), old, old);
    expect(s.get('ovf_00000001')).toBeUndefined(); // expired: gone on read
    s.put('ovf_00000003', 'c'.repeat(10));
    const recent = new Date(Date.now() - 10_000);
    utimesSync(join(dir, 'ovf_00000002.txt'), recent, recent);
    s.put('ovf_00000004', 'd'.repeat(10)); // 30 bytes > 25: the least recently used (…02) goes
    expect(s.sweep()).toEqual({ removed: 1, bytes: 20 });
    expect(readdirSync(dir).sort()).toEqual(['ovf_00000003.txt', 'ovf_00000004.txt']);
  });
});
