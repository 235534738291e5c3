/**
 * stdio transport for the server, in place of the SDK's StdioServerTransport, whose read buffer
 * throws past 10 MiB and then closes the transport: the server exited silently and the client
 * waited forever (a compact_history of CJK text under the 4,000,000-character limit is ~12 MB of
 * UTF-8). Here each newline-delimited message may be up to `maxMessageBytes` (default 64 MiB); a
 * longer one is skipped up to its newline without being held in memory, and answered with a
 * JSON-RPC error (InvalidRequest) when its id can be read from its first or last bytes. A line
 * that is not JSON, or not JSON-RPC, is answered with ParseError / InvalidRequest the same way.
 * Nothing a client sends closes the transport; only the end of stdin does.
 */
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

export const DEFAULT_MAX_MESSAGE_BYTES = 64 << 20;
const EDGE = 4096;

/** The request id of a JSON-RPC message from its first or last bytes (the SDK's client writes it last). */
export function sniffId(head: string, tail: string): RequestId | undefined {
  const re = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*[,}]/g;
  for (const s of [tail, head]) {
    let last: string | undefined;
    for (const m of s.matchAll(re)) last = m[1];
    if (last !== undefined) {
      try {
        return JSON.parse(last) as RequestId;
      } catch {
        /* not an id */
      }
    }
  }
  return undefined;
}

export class LineStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** Bytes of an over-long line dropped so far (its first EDGE bytes are kept in `head`). */
  private skipping = 0;
  private head = '';
  private tail: Buffer = Buffer.alloc(0);
  private started = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES,
  ) {}

  private readonly ondata = (chunk: Buffer) => {
    try {
      this.take(chunk);
    } catch (e) {
      // Never close on bad input: report and carry on with the next line.
      this.chunks = [];
      this.size = 0;
      this.skipping = 0;
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  };

  private readonly onerrorStream = (e: Error) => this.onerror?.(e);

  async start(): Promise<void> {
    if (this.started) throw new Error('LineStdioServerTransport already started');
    this.started = true;
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onerrorStream);
  }

  private take(chunk: Buffer): void {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      const part = chunk.subarray(from, nl < 0 ? chunk.length : nl);
      if (this.skipping) {
        this.skipping += part.length;
        this.tail = Buffer.concat([this.tail, part]).subarray(-EDGE);
      } else if (this.size + part.length > this.maxMessageBytes) {
        // Too long: keep its edges (for the id) and drop the rest as it arrives.
        const all = Buffer.concat([...this.chunks, part]);
        this.head = all.subarray(0, EDGE).toString('utf8');
        this.tail = all.subarray(-EDGE);
        this.skipping = all.length;
        this.chunks = [];
        this.size = 0;
      } else if (part.length) {
        this.chunks.push(part);
        this.size += part.length;
      }
      if (nl < 0) return;
      from = nl + 1;
      this.endOfLine();
    }
  }

  private endOfLine(): void {
    if (this.skipping) {
      const bytes = this.skipping;
      const id = sniffId(this.head, this.tail.toString('utf8'));
      this.skipping = 0;
      this.head = '';
      this.tail = Buffer.alloc(0);
      this.refuse(
        id,
        ErrorCode.InvalidRequest,
        `request of ${bytes} bytes is over the server's limit of ${this.maxMessageBytes} bytes per message; send less (fewer or shorter messages, a smaller file)`,
      );
      return;
    }
    const line = Buffer.concat(this.chunks, this.size).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (e) {
      this.refuse(sniffId(line.slice(0, EDGE), line.slice(-EDGE)), ErrorCode.ParseError, `message is not JSON: ${(e as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id = json !== null && typeof json === 'object' && 'id' in json ? json.id : undefined;
      this.refuse(typeof id === 'string' || typeof id === 'number' ? id : undefined, ErrorCode.InvalidRequest, 'message is not a JSON-RPC 2.0 message');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** Answer a message that cannot be handled, when its id is known; always say so on stderr. */
  private refuse(id: RequestId | undefined, code: ErrorCode, message: string): void {
    this.onerror?.(new Error(`ctxprune mcp: ${message}${id === undefined ? ' (no request id found: not answered)' : ''}`));
    if (id === undefined || this.closed) return;
    void this.send({ jsonrpc: '2.0', id, error: { code, message } });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onerrorStream);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + '\n')) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}
