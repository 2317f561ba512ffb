/** WebAssembly.Memory (the compiler's lib here has no WebAssembly types). */
const wasm = (
  globalThis as unknown as {
    WebAssembly: { Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer } };
  }
).WebAssembly;

/**
 * A zero-filled buffer of whole 64 KiB pages (at least `byteLength`) over its own WebAssembly.Memory: mapped pages
 * that go back to the system when the buffer is collected. For large buffers (the encoder's weights, an index's
 * columns, a model's exemplars): a malloc'd buffer of that size, once freed, raises glibc's mmap threshold and keeps
 * later buffers in the heap, so the process would not shrink.
 */
export function pageBackedBuffer(byteLength: number): ArrayBuffer {
  return new wasm.Memory({ initial: Math.max(1, Math.ceil(byteLength / 65536)) }).buffer;
}

/** A zero-filled Float32Array of `length` over {@link pageBackedBuffer}. */
export function pageBackedFloat32Array(length: number): Float32Array {
  return new Float32Array(pageBackedBuffer(length * 4), 0, length);
}
