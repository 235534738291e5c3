/**
 * Reused float32 buffers: a model run allocates a few dozen activations of the same few sizes,
 * and fresh 256 KB typed arrays for each (off-heap, each one a GC trigger) cost more than the
 * arithmetic. The executor gives an activation's buffer back after its last reader ran; kernels
 * take buffers here and give back their scratch.
 */
export class BufferPool {
  private readonly free = new Map<number, Float32Array[]>();

  /** A buffer of exactly `size` values; its contents are arbitrary. */
  take(size: number): Float32Array {
    return this.free.get(size)?.pop() ?? new Float32Array(size);
  }

  /** A zeroed buffer of `size` values. */
  zeros(size: number): Float32Array {
    const b = this.free.get(size)?.pop();
    return b ? b.fill(0) : new Float32Array(size);
  }

  give(b: Float32Array): void {
    if (b.length === 0 || b.byteOffset !== 0 || b.length !== b.buffer.byteLength / 4) return; // views stay with their owner
    let list = this.free.get(b.length);
    if (!list) this.free.set(b.length, (list = []));
    list.push(b);
  }
}
