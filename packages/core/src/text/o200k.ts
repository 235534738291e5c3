/**
 * OpenAI's o200k_base tokenizer (counts, token starts, ids for tests) in time O(n log n) on any input.
 *
 * Why not gpt-tokenizer / js-tiktoken: their byte-pair merge rescans the whole piece after every
 * merge (quadratic: 64 KB of 'A' took 4.2 s, 1 MB did not finish), their pre-tokenizer uses
 * JavaScript's `\s`, which differs from tiktoken's (Rust regex, Unicode White_Space): U+0085 is
 * whitespace there and not in JS, U+FEFF the other way round, so ' \u0085x' is 4 tokens for OpenAI
 * and 3 for them (an under-count). gpt-tokenizer also throws on `<|endoftext|>` in plain text.
 *
 * Here:
 * - the pre-tokenizer is tiktoken's o200k pattern with Rust's `\s` spelled out (and `(?i:'s)`
 *   also matching U+017F, as Rust's Unicode case folding may: either way the count below is the
 *   larger of the two readings);
 * - a piece's merges run on a binary heap keyed by (rank, position) over a linked list of parts,
 *   which performs exactly tiktoken's merges (lowest rank first, leftmost on ties) in
 *   O(m log m) for a piece of m bytes; short pieces use the plain scan, which is faster there;
 * - special-token strings are ordinary text (tiktoken's `disallowed_special=()`);
 * - where the text holds a character on which the two whitespace conventions differ (U+0085,
 *   U+FEFF, U+017F), the count is the larger of the two pre-tokenizations', so it is never under
 *   either tiktoken's or a JavaScript port's count (exact for whichever is larger).
 *
 * The rank table is read from js-tiktoken's o200k_base rank module (one base64 string) into one
 * byte buffer and an open-addressing hash table, or (a built package) from the same table
 * pre-built in binary (serializeRankTable → dist/assets/o200k_base.bin), which skips parsing the
 * 2.3 MB module: ~0.02 s to load, against ~0.4 s for gpt-tokenizer's.
 */
import { runSteps, type Steps } from '../util/steps.js';

/** White_Space as Rust's regex crate reads `\s` (JavaScript's `\s` adds U+FEFF and lacks U+0085). */
const WS = '\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** The pattern's character classes: Unicode's, or their ASCII members (see SPLIT_ASCII). */
interface Classes {
  /** Letters and numbers, inside a class. */
  ln: string;
  upper: string;
  lower: string;
  /** A number. */
  n: string;
  flags: string;
}
const UNICODE: Classes = {
  ln: '\\p{L}\\p{N}',
  upper: '[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]',
  lower: '[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]',
  n: '\\p{N}',
  flags: 'gu',
};
const ASCII: Classes = { ln: 'A-Za-z0-9', upper: '[A-Z]', lower: '[a-z]', n: '[0-9]', flags: 'g' };

function o200kPattern(ws: string, s: string, c: Classes = UNICODE): RegExp {
  const suffix = `(?:'${s}|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?`;
  const src =
    `[^\\r\\n${c.ln}]?${c.upper}*${c.lower}+${suffix}` +
    `|[^\\r\\n${c.ln}]?${c.upper}+${c.lower}*${suffix}` +
    `|${c.n}{1,3}` +
    `| ?[^${ws}${c.ln}]+[\\r\\n/]*` +
    `|[${ws}]*[\\r\\n]+` +
    `|[${ws}]+(?![^${ws}])` +
    `|[${ws}]+`;
  return new RegExp(src, c.flags);
}

/** tiktoken's (Rust) pre-tokenizer (built when first needed: see SPLIT_ASCII). */
let splitRust: RegExp | null = null;
const SPLIT_RUST = (): RegExp => (splitRust ??= o200kPattern(WS, '[sS\\u017f]'));
/**
 * The same pattern over ASCII: each class holds the ASCII members of its Unicode class (there are
 * no letters, marks or numbers below U+0080 but A-Z, a-z, 0-9, and U+0085 and U+017F are not
 * ASCII), so on a text whose other characters are only symbols and punctuation of the BMP (none a
 * letter, mark, number or space: `NEEDS_UNICODE`'s complement, checked character by character in
 * test/text/o200k.test.ts) it matches exactly where SPLIT_RUST does. V8 compiles it in a fraction
 * of the time: the Unicode classes took ~100 M instructions to compile, most of a one-shot CLI
 * process's tokenizer load, for code that is nearly all ASCII (and elision markers' '…').
 */
const SPLIT_ASCII = o200kPattern('\\t\\n\\v\\f\\r ', '[sS]', ASCII);
/** Characters outside ASCII but for general punctuation (dashes, quotes, bullets, '…'), per mille signs, primes, and arrows. */
// eslint-disable-next-line no-control-regex -- the ASCII range starts at U+0000
export const NEEDS_UNICODE = /[^\x00-\x7f\u2010-\u2027\u2030-\u205e\u2190-\u21ff]/;
/** The Rust pre-tokenizer for `text`. */
const splitFor = (text: string): RegExp => (NEEDS_UNICODE.test(text) ? SPLIT_RUST() : SPLIT_ASCII);
/** The pre-tokenizer's pieces of `text` with the Unicode or the ASCII classes (for tests). */
export const preTokenize = (text: string, classes: 'unicode' | 'ascii'): string[] => text.match(classes === 'ascii' ? SPLIT_ASCII : SPLIT_RUST()) ?? [];
/** The JavaScript ports' (gpt-tokenizer, js-tiktoken): `\s` of ECMAScript (built when first needed). */
let splitJs: RegExp | null = null;
const SPLIT_JS = (): RegExp => (splitJs ??= o200kPattern('\\s', '[sS]'));
/** Characters on which the two differ. */
const DIFFERS = /[\x85\ufeff\u017f]/;

/** Pieces up to this many bytes merge by the plain scan; longer ones on the heap. */
const SHORT_PIECE = 48;

export interface O200k {
  /** Tokens in `text` (special-token strings count as text). */
  count(text: string): number;
  /**
   * Calls `onToken(charIndex)` with the UTF-16 index where each token starts, in order; returns the
   * count. Follows the same pre-tokenization as `count` (for texts where the two conventions differ,
   * the one giving more tokens).
   */
  forEachTokenStart(text: string, onToken: (charIndex: number) => void): number;
  /** count as steps (util/steps.ts): a yield every few thousand pre-tokenizer pieces. */
  countSteps(text: string): Steps<number>;
  /** forEachTokenStart as steps (util/steps.ts): a yield every few thousand pre-tokenizer pieces. */
  tokenStartSteps(text: string, onToken: (charIndex: number) => void): Steps<number>;
  /** The UTF-8 bytes of a token (for tests). */
  tokenBytes(rank: number): Uint8Array;
  /** The token ranks of `text`, as tiktoken's encode with no special tokens (for tests). */
  encode(text: string): number[];
  /** The token ranks of one pre-tokenizer piece, merged as a whole (no pre-tokenization). */
  pieceRanks(piece: string): number[];
  readonly vocabularySize: number;
}

/** Builds the tokenizer from js-tiktoken's rank string ('! 0 <base64> <base64> …'). */
export function buildO200k(bpeRanks: string): O200k {
  const table = RankTable.fromBase64List(bpeRanks);
  return new O200kImpl(table);
}

/**
 * The compact binary form of the rank table (built into dist/assets at build time; Node reads it
 * instead of parsing js-tiktoken's 2.3 MB module, a browser fetches it): 'O2K3', then
 * little-endian u32 size, byte count, slot count, longest token, 0; u32 block offsets (one per
 * BLOCK ranks, + 1); u32 hash slots; u8 token lengths (size, padded to 4); token bytes. Every
 * part is used in place: loading it does no per-token work. 2.7 MB where O2K2 (u32 offsets per
 * rank, twice the slots) took 4.3 MB: a process pays for each page of it it touches (#15).
 */
export function serializeRankTable(bpeRanks: string): Uint8Array {
  const t = RankTable.fromBase64List(bpeRanks);
  const blocksAt = 24;
  const slotsAt = blocksAt + t.blockOffs.length * 4;
  const lensAt = slotsAt + t.slots.length * 4;
  const bytesAt = lensAt + pad4(t.size);
  const out = new Uint8Array(bytesAt + t.bytes.length);
  const dv = new DataView(out.buffer);
  out.set(MAGIC);
  dv.setUint32(4, t.size, true);
  dv.setUint32(8, t.bytes.length, true);
  dv.setUint32(12, t.slots.length, true);
  dv.setUint32(16, t.maxLen, true);
  for (let i = 0; i < t.blockOffs.length; i++) dv.setUint32(blocksAt + i * 4, t.blockOffs[i], true);
  for (let i = 0; i < t.slots.length; i++) dv.setUint32(slotsAt + i * 4, t.slots[i], true);
  out.set(t.lens, lensAt);
  out.set(t.bytes, bytesAt);
  return out;
}

const MAGIC = [0x4f, 0x32, 0x4b, 0x33]; // 'O2K3'
const pad4 = (n: number): number => (n + 3) & ~3;

/** Little-endian hosts (all current JS engines) view 4-byte-aligned tables in place. */
const LITTLE_ENDIAN = /* @__PURE__ */ (() => new Uint8Array(new Uint16Array([1]).buffer)[0] === 1)();

/** n little-endian u32 at bin[at..]: a view when aligned, else a copy. */
function uint32s(bin: Uint8Array, at: number, n: number): Uint32Array {
  const abs = bin.byteOffset + at;
  if (abs % 4 === 0 && LITTLE_ENDIAN) return new Uint32Array(bin.buffer, abs, n);
  const out = new Uint32Array(n);
  const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  for (let i = 0; i < n; i++) out[i] = dv.getUint32(at + i * 4, true);
  return out;
}

/** The tokenizer from serializeRankTable's bytes; throws on a table that is not one. */
export function o200kFromTable(bin: Uint8Array): O200k {
  const dv = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  if (bin.length < 24 || MAGIC.some((b, i) => bin[i] !== b)) throw new Error('o200k: not a rank table');
  const size = dv.getUint32(4, true),
    nBytes = dv.getUint32(8, true),
    nSlots = dv.getUint32(12, true);
  const nBlocks = blockCount(size);
  const blocksAt = 24;
  const slotsAt = blocksAt + nBlocks * 4;
  const lensAt = slotsAt + nSlots * 4;
  const bytesAt = lensAt + pad4(size);
  if ((nSlots & (nSlots - 1)) !== 0 || nSlots <= size || bytesAt + nBytes !== bin.length) throw new Error('o200k: truncated rank table');
  const t = new RankTable();
  t.size = size;
  t.maxLen = dv.getUint32(16, true);
  t.blockOffs = uint32s(bin, blocksAt, nBlocks);
  if (t.blockOffs[0] !== 0 || t.blockOffs[nBlocks - 1] !== nBytes || t.maxLen > MAX_TOKEN_BYTES) throw new Error('o200k: inconsistent rank table');
  t.slots = uint32s(bin, slotsAt, nSlots);
  t.mask = nSlots - 1;
  t.lens = bin.subarray(lensAt, lensAt + size);
  t.bytes = bin.subarray(bytesAt, bytesAt + nBytes);
  return new O200kImpl(t);
}

/** Ranks per block offset: a token's offset is its block's plus the lengths before it in the block. */
const BLOCK = 16;
const blockCount = (size: number): number => Math.ceil(size / BLOCK) + 1;
/**
 * A slot: rank + 1 (bits 0–17; 0 = empty), length − 1 (bits 18–24) and the top 7 bits of the
 * key's hash (25–31), so that a probe compares bytes only for a key of the same length and tag.
 */
const RANK_BITS = 18;
const RANK_MASK = (1 << RANK_BITS) - 1;
const MAX_TOKEN_BYTES = 128;

class RankTable {
  /** Token bytes, concatenated in rank order. */
  bytes!: Uint8Array;
  /** Byte length of each token (0: a rank with no token). */
  lens!: Uint8Array;
  /** Offset in `bytes` of ranks 0, BLOCK, 2·BLOCK, …, and the total. */
  blockOffs!: Uint32Array;
  size!: number;
  maxLen = 0;
  /** Open addressing, linear probing; see RANK_BITS. */
  slots!: Uint32Array;
  mask = 0;

  static fromBase64List(s: string): RankTable {
    const t = new RankTable();
    const bytes = new Uint8Array(Math.ceil(s.length * 0.75));
    const offs = new Uint32Array(Math.ceil(s.length / 4) + 2);
    const size = decodeRankList(s, bytes, offs);
    if (size >= RANK_MASK) throw new Error('o200k: too many ranks for the table');
    t.bytes = bytes.subarray(0, offs[size]);
    t.size = size;
    t.lens = new Uint8Array(size);
    t.blockOffs = new Uint32Array(blockCount(size));
    for (let r = 0; r < size; r++) {
      const n = offs[r + 1] - offs[r];
      if (n > MAX_TOKEN_BYTES) throw new Error('o200k: a token longer than the table holds');
      t.lens[r] = n;
      if (n > t.maxLen) t.maxLen = n;
      if (r % BLOCK === 0) t.blockOffs[r / BLOCK] = offs[r];
    }
    t.blockOffs[t.blockOffs.length - 1] = offs[size];
    // At most 0.77 full (200k ranks in 2^18 slots): a miss probes ~9 slots, each a compare of one word.
    let cap = 1;
    while (cap < size * 1.3) cap <<= 1;
    t.slots = new Uint32Array(cap);
    t.mask = cap - 1;
    for (let r = 0; r < size; r++) {
      const n = t.lens[r];
      if (n === 0) continue; // a hole in the ranks
      const h = hash(t.bytes, offs[r], offs[r] + n);
      let i = h & t.mask;
      while (t.slots[i] !== 0) i = (i + 1) & t.mask;
      t.slots[i] = (slotKey(h, n) | (r + 1)) >>> 0;
    }
    return t;
  }

  /** Offset in `bytes` of token r. */
  offset(r: number): number {
    const first = r & ~(BLOCK - 1);
    let o = this.blockOffs[first / BLOCK];
    for (let k = first; k < r; k++) o += this.lens[k];
    return o;
  }

  /** The rank of buf[a..b), or -1. */
  rank(buf: Uint8Array, a: number, b: number): number {
    const n = b - a;
    if (n > this.maxLen || n === 0) return -1;
    const { bytes, slots, mask } = this;
    const h = hash(buf, a, b);
    const key = slotKey(h, n);
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = slots[i];
      if (s === 0) return -1;
      if ((s & ~RANK_MASK) === key) {
        const r = (s & RANK_MASK) - 1;
        const o = this.offset(r);
        let k = 0;
        while (k < n && bytes[o + k] === buf[a + k]) k++;
        if (k === n) return r;
      }
    }
  }
}

/** A slot's length and tag bits for a key of n bytes hashing to h (an int32, as `s & ~RANK_MASK` gives). */
function slotKey(h: number, n: number): number {
  return ((h >>> 25) << 25) | ((n - 1) << RANK_BITS);
}

const B64 = /* @__PURE__ */ (() => {
  const t = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
})();

/**
 * Decodes js-tiktoken's rank list: lines of '<tag> <first rank> <base64> <base64> …', the ranks
 * of a line consecutive from its first. Token r's bytes go to bytes[offs[r]..offs[r+1]); returns
 * the number of ranks (a rank no line names has no bytes).
 */
function decodeRankList(s: string, bytes: Uint8Array, offs: Uint32Array): number {
  let pos = 0,
    o = 0,
    rank = 0,
    size = 0;
  const n = s.length;
  while (pos < n) {
    // Line header: tag, then the first rank.
    while (pos < n && s.charCodeAt(pos) !== 32) pos++;
    pos++;
    let r = 0;
    for (let c = s.charCodeAt(pos); c >= 48 && c <= 57; c = s.charCodeAt(++pos)) r = r * 10 + (c - 48);
    for (; rank < r; rank++) offs[rank + 1] = o; // holes
    // Tokens until the end of the line.
    while (pos < n && s.charCodeAt(pos) === 32) {
      pos++;
      for (;;) {
        const c0 = s.charCodeAt(pos);
        if (pos >= n || c0 === 32 || c0 === 10) break;
        const a = B64[c0],
          b = B64[s.charCodeAt(pos + 1)];
        const c = B64[s.charCodeAt(pos + 2)],
          d = B64[s.charCodeAt(pos + 3)];
        bytes[o++] = (a << 2) | (b >> 4);
        if (c >= 0) {
          bytes[o++] = ((b & 15) << 4) | (c >> 2);
          if (d >= 0) bytes[o++] = ((c & 3) << 6) | d;
        }
        pos += 4;
      }
      offs[++rank] = o;
    }
    size = rank;
    while (pos < n && s.charCodeAt(pos) !== 10) pos++;
    pos++;
  }
  return size;
}

function hash(buf: Uint8Array, a: number, b: number): number {
  let h = 0x811c9dc5;
  for (let i = a; i < b; i++) h = Math.imul(h ^ buf[i], 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

/** UTF-8 of s[a..b) into out (lone surrogates as U+FFFD, as TextEncoder); returns the length. */
function utf8(s: string, a: number, b: number, out: Uint8Array): number {
  let o = 0;
  for (let i = a; i < b; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) out[o++] = c;
    else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 63);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < b ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          out[o++] = 0xf0 | (cp >> 18);
          out[o++] = 0x80 | ((cp >> 12) & 63);
          out[o++] = 0x80 | ((cp >> 6) & 63);
          out[o++] = 0x80 | (cp & 63);
          i++;
          continue;
        }
        c = 0xfffd;
      }
      out[o++] = 0xe0 | (c >> 12);
      out[o++] = 0x80 | ((c >> 6) & 63);
      out[o++] = 0x80 | (c & 63);
    }
  }
  return o;
}

const CACHE_LIMIT = 65_536;
/** Pre-tokenizer pieces between two yields of matchSteps (~1 ms of work). */
const WALK_STEP = 2048;

/**
 * Each match of the global `re` in `text`, with a yield every WALK_STEP matches. The regexes are
 * shared (module constants), so the position is kept here and set again after each yield
 * (another text may have been split meanwhile).
 */
function* matchSteps(re: RegExp, text: string, onMatch: (m: RegExpExecArray) => void): Steps<void> {
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  for (let pieces = 1; (m = re.exec(text)) !== null; pieces++) {
    if (pieces % WALK_STEP === 0) {
      const at = re.lastIndex;
      yield;
      re.lastIndex = at;
    }
    onMatch(m);
  }
}
const CACHE_KEY_MAX = 256;
const LONG_CACHE_LIMIT = 8;

class O200kImpl implements O200k {
  private buf = new Uint8Array(1024);
  /** Token count of a piece: short pieces, and a few long ones (a 1 MB run is counted again each time a candidate output holding it is). */
  private cache = new Map<string, number>();
  private longCache = new Map<string, number>();
  // Scratch for the merges.
  private starts = new Int32Array(64);
  private pairRank = new Int32Array(64);

  constructor(private readonly table: RankTable) {}

  get vocabularySize(): number {
    return this.table.size;
  }

  tokenBytes(rank: number): Uint8Array {
    const o = this.table.offset(rank);
    return this.table.bytes.subarray(o, o + this.table.lens[rank]);
  }

  count(text: string): number {
    if (text.length === 0) return 0;
    const a = this.countWith(splitFor(text), text);
    if (!DIFFERS.test(text)) return a;
    return Math.max(a, this.countWith(SPLIT_JS(), text));
  }

  *countSteps(text: string): Steps<number> {
    if (text.length === 0) return 0;
    const a = yield* this.countWithSteps(splitFor(text), text);
    if (!DIFFERS.test(text)) return a;
    return Math.max(a, yield* this.countWithSteps(SPLIT_JS(), text));
  }

  encode(text: string): number[] {
    const out: number[] = [];
    runSteps(
      this.walkSteps(
        splitFor(text),
        text,
        () => true,
        (_start, n, bytesLen, ends) => {
          let prev = 0;
          for (let k = 0; k < n; k++) {
            const e = ends ? ends[k] : bytesLen;
            out.push(this.table.rank(this.buf, prev, e));
            prev = e;
          }
        },
      ),
    );
    return out;
  }

  pieceRanks(piece: string): number[] {
    const len = this.encodePiece(piece);
    if (len === 0) return [];
    const n = len === 1 || this.table.rank(this.buf, 0, len) >= 0 ? 1 : this.merge(len, true);
    const out: number[] = [];
    for (let k = 0, prev = 0; k < n; k++) {
      const e = n === 1 ? len : this.starts[k];
      out.push(this.table.rank(this.buf, prev, e));
      prev = e;
    }
    return out;
  }

  forEachTokenStart(text: string, onToken: (charIndex: number) => void): number {
    return runSteps(this.tokenStartSteps(text, onToken));
  }

  *tokenStartSteps(text: string, onToken: (charIndex: number) => void): Steps<number> {
    if (text.length === 0) return 0;
    let re = splitFor(text);
    if (DIFFERS.test(text) && this.countWith(SPLIT_JS(), text) > this.countWith(re, text)) re = SPLIT_JS();
    let total = 0;
    // Only a piece holding a line break can charge tokens to two lines.
    yield* this.walkSteps(
      re,
      text,
      (piece) => piece.includes('\n'),
      (start, n, _bytesLen, ends, piece) => {
        total += n;
        if (n === 1 || !ends) {
          for (let k = 0; k < n; k++) onToken(start);
          return;
        }
        // Map each token's starting byte back to the UTF-16 index of the character holding it.
        let byte = 0,
          ci = 0,
          k = 0,
          tokStart = 0;
        while (k < n) {
          while (ci < piece.length) {
            const c = piece.charCodeAt(ci);
            const pair = c >= 0xd800 && c <= 0xdbff && ci + 1 < piece.length && (piece.charCodeAt(ci + 1) & 0xfc00) === 0xdc00;
            const w = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
            if (byte + w > tokStart) break;
            byte += w;
            ci += pair ? 2 : 1;
          }
          onToken(start + ci);
          tokStart = ends[k++];
        }
      },
    );
    return total;
  }

  private countWith(re: RegExp, text: string): number {
    let total = 0;
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) total += this.pieceCount(m[0]);
    return total;
  }

  /** countWith as steps. */
  private *countWithSteps(re: RegExp, text: string): Steps<number> {
    let total = 0;
    yield* matchSteps(re, text, (m) => {
      total += this.pieceCount(m[0]);
    });
    return total;
  }

  /** Tokens in one pre-tokenizer piece (memoized). */
  private pieceCount(piece: string): number {
    const cache = piece.length <= CACHE_KEY_MAX ? this.cache : this.longCache;
    const hit = cache.get(piece);
    if (hit !== undefined) return hit;
    const len = this.encodePiece(piece);
    const n = len <= 1 ? len : this.table.rank(this.buf, 0, len) >= 0 ? 1 : this.merge(len, false);
    if (cache.size >= (cache === this.cache ? CACHE_LIMIT : LONG_CACHE_LIMIT)) cache.clear();
    cache.set(piece, n);
    return n;
  }

  /**
   * Calls back per piece with its token count and, when `needEnds(piece)` and the piece has more
   * than one token, each token's end byte (else null); a yield every WALK_STEP pieces.
   */
  private *walkSteps(
    re: RegExp,
    text: string,
    needEnds: (piece: string) => boolean,
    each: (start: number, n: number, bytesLen: number, ends: Int32Array | null, piece: string) => void,
  ): Steps<void> {
    yield* matchSteps(re, text, (m) => {
      const piece = m[0];
      if (!needEnds(piece)) {
        each(m.index, this.pieceCount(piece), -1, null, piece);
        return;
      }
      const len = this.encodePiece(piece);
      if (len <= 1 || this.table.rank(this.buf, 0, len) >= 0) {
        each(m.index, len === 0 ? 0 : 1, len, null, piece);
        return;
      }
      const n = this.merge(len, true);
      each(m.index, n, len, this.starts.subarray(0, n), piece);
    });
  }

  private encodePiece(piece: string): number {
    if (this.buf.length < piece.length * 3) this.buf = new Uint8Array(piece.length * 3 + 16);
    return utf8(piece, 0, piece.length, this.buf);
  }

  /**
   * Byte-pair merges of buf[0..len) exactly as tiktoken's `_byte_pair_merge`; returns the token
   * count, and with `wantEnds` leaves each token's end byte in this.starts[0..count).
   */
  private merge(len: number, wantEnds: boolean): number {
    return len <= SHORT_PIECE ? this.mergeScan(len, wantEnds) : this.mergeHeap(len, wantEnds);
  }

  private mergeScan(len: number, wantEnds: boolean): number {
    const t = this.table,
      buf = this.buf;
    // parts: starts[0..n] with starts[n] = len; pairRank[i] = rank of parts i and i+1.
    if (this.starts.length < len + 2) {
      this.starts = new Int32Array(len + 2);
      this.pairRank = new Int32Array(len + 2);
    }
    const st = this.starts,
      pr = this.pairRank;
    let n = len;
    for (let i = 0; i <= len; i++) st[i] = i;
    for (let i = 0; i < n - 1; i++) pr[i] = t.rank(buf, i, i + 2);
    for (;;) {
      let best = -1,
        bestRank = 0x7fffffff;
      for (let i = 0; i < n - 1; i++) {
        const r = pr[i];
        if (r >= 0 && r < bestRank) {
          bestRank = r;
          best = i;
        }
      }
      if (best < 0) break;
      // Merge parts best and best+1.
      for (let i = best + 1; i < n; i++) {
        st[i] = st[i + 1];
      }
      for (let i = best + 1; i < n - 1; i++) pr[i] = pr[i + 1];
      n--;
      if (best > 0) pr[best - 1] = best + 1 <= n ? t.rank(buf, st[best - 1], st[best + 1]) : -1;
      pr[best] = best + 1 < n ? t.rank(buf, st[best], st[best + 2]) : -1;
    }
    if (wantEnds) for (let i = 0; i < n; i++) st[i] = st[i + 1];
    return n;
  }

  private mergeHeap(len: number, wantEnds: boolean): number {
    const t = this.table,
      buf = this.buf;
    // Parts are a linked list over byte positions: a part starts at p and ends at next[p].
    const next = new Int32Array(len + 1);
    const prev = new Int32Array(len + 1);
    const cur = new Int32Array(len + 1); // rank of the pair starting at p; -1 none, -2 p is no part start
    // A binary min-heap of keys rank * 2^32 + position (exact in a double below 2^53), so that the
    // lowest rank pops first and, among equal ranks, the leftmost pair (as tiktoken's scan).
    let heap: Float64Array<ArrayBuffer> = new Float64Array(len + 16);
    let hn = 0;
    for (let p = 0; p <= len; p++) {
      next[p] = p + 1;
      prev[p] = p - 1;
    }
    for (let p = 0; p < len - 1; p++) {
      const r = t.rank(buf, p, p + 2);
      cur[p] = r;
      if (r >= 0) heap[hn++] = r * SHIFT + p;
    }
    cur[len - 1] = -1;
    for (let i = (hn >> 1) - 1; i >= 0; i--) siftDown(heap, hn, i, heap[i]);
    let n = len;
    while (hn > 0) {
      const key = heap[0];
      hn--;
      if (hn > 0) siftDown(heap, hn, 0, heap[hn]);
      const r = Math.floor(key / SHIFT);
      const p = key - r * SHIFT;
      if (cur[p] !== r) continue; // stale: the pair changed or p was merged away
      // Merge the part at p with the next one.
      const q = next[p];
      cur[q] = -2;
      const after = next[q];
      next[p] = after;
      if (after <= len) prev[after] = p;
      n--;
      const rp = after < len ? t.rank(buf, p, next[after]) : -1;
      cur[p] = rp;
      if (rp >= 0) {
        if (hn === heap.length) heap = grow(heap);
        siftUp(heap, hn++, rp * SHIFT + p);
      }
      const pp = prev[p];
      if (pp >= 0) {
        const rpp = t.rank(buf, pp, after);
        cur[pp] = rpp;
        if (rpp >= 0) {
          if (hn === heap.length) heap = grow(heap);
          siftUp(heap, hn++, rpp * SHIFT + pp);
        }
      }
    }
    if (wantEnds) {
      if (this.starts.length < n + 1) this.starts = new Int32Array(n + 1);
      let k = 0;
      for (let p = 0; p < len; p = next[p]) this.starts[k++] = next[p];
    }
    return n;
  }
}

const SHIFT = 4294967296;

function siftDown(heap: Float64Array, n: number, i: number, key: number): void {
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && heap[c + 1] < heap[c]) c++;
    if (heap[c] >= key) break;
    heap[i] = heap[c];
    i = c;
  }
  heap[i] = key;
}

function siftUp(heap: Float64Array, i: number, key: number): void {
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (heap[parent] <= key) break;
    heap[i] = heap[parent];
    i = parent;
  }
  heap[i] = key;
}

function grow(heap: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const h = new Float64Array(heap.length * 2);
  h.set(heap);
  return h;
}
