/** The stdio transport: any line, however long or malformed, is answered or dropped; the transport stays open (#16 item 3). */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineStdioServerTransport, sniffId } from '../src/transport.js';

function setup(max: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const t = new LineStdioServerTransport(stdin, stdout, max);
  const got: JSONRPCMessage[] = [];
  const sent: unknown[] = [];
  const errors: string[] = [];
  let closed = false;
  t.onmessage = (m) => got.push(m);
  t.onerror = (e) => errors.push(e.message);
  t.onclose = () => {
    closed = true;
  };
  let out = '';
  stdout.on('data', (d: Buffer) => {
    out += d.toString();
    let nl;
    while ((nl = out.indexOf('\n')) >= 0) {
      sent.push(JSON.parse(out.slice(0, nl)));
      out = out.slice(nl + 1);
    }
  });
  const write = async (chunks: (string | Buffer)[]) => {
    for (const c of chunks) stdin.write(c);
    await new Promise((r) => setImmediate(r));
  };
  return { t, got, sent, errors, write, closed: () => closed };
}

const req = (id: number, extra = '') => `{"method":"tools/call","params":{"name":"x","arguments":{"a":"${extra}"}},"jsonrpc":"2.0","id":${id}}\n`;

describe('LineStdioServerTransport', () => {
  it('delivers messages split across chunks, several per chunk, CRLF or LF', async () => {
    const s = setup(1 << 20);
    await s.t.start();
    const two = req(1) + req(2).replace('\n', '\r\n');
    await s.write([two.slice(0, 10), two.slice(10, 90), two.slice(90)]);
    expect(s.got.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
  });

  it('a line over the limit is skipped as it arrives and answered with InvalidRequest; the next line is served', async () => {
    const s = setup(1000);
    await s.t.start();
    const long = req(7, 'y'.repeat(5000));
    // In 100-byte chunks: the limit is crossed mid-stream, the id comes only at the very end.
    const chunks: string[] = [];
    for (let i = 0; i < long.length; i += 100) chunks.push(long.slice(i, i + 100));
    await s.write([...chunks, req(8)]);
    expect(s.sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: -32600,
          message: `request of ${long.length - 1} bytes is over the server's limit of 1000 bytes per message; send less (fewer or shorter messages, a smaller file)`,
        },
      },
    ]);
    expect(s.got.map((m) => (m as { id: number }).id)).toEqual([8]);
    expect(s.closed()).toBe(false);
  });

  it('malformed JSON and non-JSON-RPC lines are answered when they carry an id, logged always, and never close', async () => {
    const s = setup(1 << 20);
    await s.t.start();
    await s.write(['{"jsonrpc":"2.0","id":3,"method":\n', '{"jsonrpc":"2.0","id":"q","method":5}\n', 'garbage\n', '\n', req(4)]);
    expect(s.sent).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: -32700, message: expect.stringMatching(/^message is not JSON: /) } },
      { jsonrpc: '2.0', id: 'q', error: { code: -32600, message: 'message is not a JSON-RPC 2.0 message' } },
    ]);
    expect(s.errors.some((e) => e.includes('(no request id found: not answered)'))).toBe(true);
    expect(s.got.map((m) => (m as { id: number }).id)).toEqual([4]);
    expect(s.closed()).toBe(false);
  });

  it('sniffId reads the id from either edge, the last one in the tail first', () => {
    expect(sniffId('{"jsonrpc":"2.0","id":12,"method":"x"', '')).toBe(12);
    expect(sniffId('{"params":{"x":"', 'tail "id":"abc"}')).toBe('abc');
    expect(sniffId('{"params":{"id":1', '"jsonrpc":"2.0","id":99}')).toBe(99);
    expect(sniffId('nothing', 'here')).toBeUndefined();
  });
});
