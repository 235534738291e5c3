/**
 * The protobuf wire format, read-only: just what the ONNX reader (onnx.ts) needs. Fields are
 * visited in order; a reader hands each one's number, wire type and value to a callback.
 */

/** Wire types. */
export const Wire = { Varint: 0, Fixed64: 1, Bytes: 2, Fixed32: 5 } as const;

export class ProtobufError extends Error {}

export class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  /** A varint as a number: int64 values as exact integers up to 2^53, negatives (10-byte two's complement) included. */
  varint(): number {
    const b = this.buf;
    let x = 0;
    let shift = 0;
    // Up to 4 bytes (28 bits) stay in 32-bit arithmetic; longer ones go through BigInt.
    for (let i = 0; i < 4; i++) {
      if (this.pos >= this.end) throw new ProtobufError('truncated varint');
      const c = b[this.pos++];
      x |= (c & 0x7f) << shift;
      if (c < 0x80) return x;
      shift += 7;
    }
    let big = BigInt(x);
    let s = 28n;
    for (let i = 4; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('truncated varint');
      const c = b[this.pos++];
      big |= BigInt(c & 0x7f) << s;
      if (c < 0x80) return Number(BigInt.asIntN(64, big));
      s += 7n;
    }
    throw new ProtobufError('varint longer than 10 bytes');
  }

  /** The bytes of a length-delimited field (a view, not a copy). */
  bytes(): Uint8Array {
    const len = this.varint();
    if (len < 0 || this.pos + len > this.end) throw new ProtobufError('length-delimited field runs past its message');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }

  string(): string {
    return new TextDecoder().decode(this.bytes());
  }

  float32(): number {
    if (this.pos + 4 > this.end) throw new ProtobufError('truncated fixed32');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 4).getFloat32(0, true);
    this.pos += 4;
    return v;
  }

  skip(wire: number): void {
    switch (wire) {
      case Wire.Varint:
        this.varint();
        return;
      case Wire.Fixed64:
        this.pos += 8;
        break;
      case Wire.Bytes:
        this.bytes();
        return;
      case Wire.Fixed32:
        this.pos += 4;
        break;
      default:
        throw new ProtobufError(`unsupported wire type ${wire}`);
    }
    if (this.pos > this.end) throw new ProtobufError('truncated field');
  }

  /** Visit every field of the message: `visit(field, wire)` reads the value (or calls `skip`). */
  fields(visit: (field: number, wire: number) => void): void {
    while (this.pos < this.end) {
      const key = this.varint();
      const field = key >>> 3;
      const wire = key & 7;
      const before = this.pos;
      visit(field, wire);
      if (this.pos === before) this.skip(wire); // the visitor did not read it: an unknown field
    }
    if (this.pos !== this.end) throw new ProtobufError('message runs past its end');
  }

  /** A sub-message's reader (the field is length-delimited). */
  message(): Reader {
    const b = this.bytes();
    return new Reader(b);
  }

  /** A repeated varint field, packed or not. */
  varints(wire: number, into: number[]): void {
    if (wire === Wire.Bytes) {
      const r = this.message();
      while (r.pos < r.end) into.push(r.varint());
    } else into.push(this.varint());
  }

  /** A repeated float field, packed or not. */
  floats(wire: number, into: number[]): void {
    if (wire === Wire.Bytes) {
      const r = this.message();
      while (r.pos < r.end) into.push(r.float32());
    } else into.push(this.float32());
  }
}
