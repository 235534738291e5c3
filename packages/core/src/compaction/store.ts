/**
 * Nothing is lost: every evicted or pruned message body goes here under a stable key that its
 * placeholder names (`[tool output pruned; use read_overflow <key> to retrieve]`).
 */
export interface OverflowEntry {
  key: string;
  messageId: string;
  content: string;
}

/** FNV-1a 32-bit, hex: keys are stable across runs for the same message. */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The key a message body gets in the store (before collision suffixes, which need a hash clash). */
export function overflowKey(messageId: string, content: string): string {
  return `ovf_${fnv1a(messageId + '\u0000' + content)}`;
}

export class OverflowStore {
  private readonly entries = new Map<string, OverflowEntry>();

  /** Store a message body; returns its key (`ovf_<hash>`), the same for the same id and content. */
  put(messageId: string, content: string): string {
    let key = overflowKey(messageId, content);
    for (let n = 2; this.entries.has(key) && this.entries.get(key)!.content !== content; n++) key = `${key}_${n}`;
    this.entries.set(key, { key, messageId, content });
    return key;
  }

  /** The original content (what `read_overflow <key>` returns), or undefined. */
  get(key: string): string | undefined {
    return this.entries.get(key)?.content;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  get size(): number {
    return this.entries.size;
  }

  toJSON(): Record<string, OverflowEntry> {
    return Object.fromEntries(this.entries);
  }
}

/** The `read_overflow` tool an agent calls with a placeholder's key. */
export function readOverflow(store: OverflowStore, key: string): string {
  const v = store.get(key.trim());
  return v ?? `[read_overflow: no entry for key ${key}]`;
}
