import { EventEmitter } from 'node:events';
import { randomBytes, timingSafeEqual } from 'node:crypto';

export interface Session {
  id: string;
  userId: string;
  createdAt: number;
  lastSeenAt: number;
  data: Record<string, unknown>;
}

export interface SessionStoreOptions {
  /** Idle time after which a session expires, in milliseconds. */
  idleTtlMs: number;
  /** Hard cap on a session's total lifetime, in milliseconds. */
  absoluteTtlMs: number;
  /** Most sessions kept in memory before the least recently used is evicted. */
  maxSessions: number;
  now?: () => number;
}

type Entry<V> = { value: V; expiresAt: number };

/** A Map-backed LRU: iteration order is recency order, oldest first. */
export class LruCache<K, V> {
  private readonly map = new Map<K, Entry<V>>();

  constructor(
    private readonly capacity: number,
    private readonly now: () => number,
    private readonly onEvict: (key: K, value: V, reason: 'expired' | 'capacity') => void,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.map.delete(key);
      this.onEvict(key, entry.value, 'expired');
      return undefined;
    }
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, ttlMs: number): void {
    this.map.delete(key);
    this.map.set(key, { value, expiresAt: this.now() + ttlMs });
    while (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value as K;
      const evicted = this.map.get(oldest)!;
      this.map.delete(oldest);
      this.onEvict(oldest, evicted.value, 'capacity');
    }
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  prune(): number {
    const now = this.now();
    let removed = 0;
    for (const [key, entry] of this.map) {
      if (entry.expiresAt <= now) {
        this.map.delete(key);
        this.onEvict(key, entry.value, 'expired');
        removed++;
      }
    }
    return removed;
  }
}

export class SessionStore extends EventEmitter {
  private readonly cache: LruCache<string, Session>;
  private readonly now: () => number;

  constructor(private readonly options: SessionStoreOptions) {
    super();
    this.now = options.now ?? Date.now;
    this.cache = new LruCache(options.maxSessions, this.now, (id, session, reason) => {
      this.emit('end', { id, userId: session.userId, reason });
    });
  }

  create(userId: string, data: Record<string, unknown> = {}): Session {
    const now = this.now();
    const session: Session = { id: randomBytes(24).toString('base64url'), userId, createdAt: now, lastSeenAt: now, data };
    this.cache.set(session.id, session, this.ttlFor(session));
    this.emit('start', { id: session.id, userId });
    return session;
  }

  /** Look a session up by the id a client presented; refreshes its idle timer. */
  touch(presentedId: string): Session | undefined {
    const session = this.cache.get(presentedId);
    if (!session || !sameId(session.id, presentedId)) return undefined;
    session.lastSeenAt = this.now();
    this.cache.set(session.id, session, this.ttlFor(session));
    return session;
  }

  destroy(id: string): void {
    const session = this.cache.get(id);
    if (session && this.cache.delete(id)) {
      this.emit('end', { id, userId: session.userId, reason: 'logout' });
    }
  }

  private ttlFor(session: Session): number {
    const untilAbsolute = session.createdAt + this.options.absoluteTtlMs - this.now();
    return Math.max(0, Math.min(this.options.idleTtlMs, untilAbsolute));
  }
}

function sameId(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
