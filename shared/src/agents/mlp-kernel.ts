/**
 * The lab's networks as a few dense layers computed in WebAssembly with 128-bit SIMD: the
 * multilayer perceptrons `python -m wonderlab.train` writes (onnx-mlp.ts reads them) at a fraction
 * of what a call into onnxruntime costs at one row.
 *
 * Why: the search calls its network once a node and once a leaf, one observation at a time, and at
 * that size onnxruntime-node's call (tensors, the native boundary, its kernels' set-up) cost about
 * 40 µs on the lab's 675→256→256 network, as much as the search's own iteration. A layer here reads
 * only the inputs that are not zero — an observation has about a hundred of 675, and a hidden layer
 * after ReLU about half — adding each one's weight row (the weights are stored transposed, a row per
 * input) to the outputs four lanes at a time. Lanes multiply then add, never fused: the sums are the
 * same bits on every processor.
 *
 * The module is written here byte by byte (it is one function, `dense`), so nothing is built or
 * downloaded for it.
 */

// Value types and opcodes of the WebAssembly binary format (the core spec and its SIMD proposal).
const I32 = 0x7f;
const F32 = 0x7d;
const V128 = 0x7b;
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const IF = [0x04, 0x40];
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const I32_LOAD = 0x28;
const F32_LOAD = 0x2a;
const I32_STORE = 0x36;
const F32_STORE = 0x38;
const I32_CONST = 0x41;
const F32_CONST = 0x43;
const I32_GT_U = 0x4b;
const I32_GE_U = 0x4f;
const F32_NE = 0x5c;
const I32_ADD = 0x6a;
const I32_MUL = 0x6c;
const I32_SHL = 0x74;
const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const V128_STORE = [SIMD, 0x0b];
const V128_CONST = [SIMD, 0x0c];
const F32X4_SPLAT = [SIMD, 0x13];
const F32X4_ADD = [SIMD, 0xe4, 0x01];
const F32X4_MUL = [SIMD, 0xe6, 0x01];
const F32X4_MAX = [SIMD, 0xe9, 0x01];

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}

const name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, 'utf8')];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vector = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
/** A v128 load or store's memory argument: 16-byte alignment, a byte offset. */
const v128At = (offset: number): number[] => [4, ...uleb(offset)];

// dense(x, nIn, w, b, out, nOut, relu, list): out[0..nOut) = b + Σ_i x[i] · w[i·nOut ..], then ReLU
// when relu ≠ 0. Pointers are byte offsets into the memory, 16-byte aligned; nOut is a multiple of
// 16; `list` is scratch for 8 · nIn bytes. First the inputs that are not zero are listed (their
// row's byte offset and value); then out = b, and the listed rows are added to out four at a time,
// each row whole and in order: out = (((out + x₁·w₁) + x₂·w₂) + x₃·w₃) + x₄·w₄ lane by lane, so
// every output is b plus its terms one after another in list order, the same floats whatever the
// grouping.
// The kernel first summed 32 outputs at a time in registers over the whole list, reading each row
// in 128-byte pieces a row's length apart: on the second layer of run strong's gen-3 (157 inputs
// listed, hot) 5.7 G multiply-adds/s against 7.2 row by row, and the guided search's iteration
// 1.72 and 1.74 × the unguided one against 1.69 and 1.57 (issue 63; docs/benchmarks.md).
const [X, N_IN, W, B, OUT, N_OUT, RELU, LIST] = [0, 1, 2, 3, 4, 5, 6, 7];
// Its locals: i32 the input index, a row's byte offset J, a row's bytes, a list entry, the list's
// end, out + J; K rows' addresses and the same plus J; v128 K inputs in four lanes; f32 an input.
const [I, J, ROW_BYTES, P, LIST_END, OJ] = [8, 9, 10, 11, 12, 13];
// Rows a pass (the same layer, hot, G multiply-adds/s): 1 row 5.2, 2 rows 6.0, 4 rows 7.2, 6 rows
// 7.3, 8 rows 6.2 (our reading: more live values than x64's sixteen vector registers).
const K = 4;
const WP = 14; // WP .. WP + K − 1: the rows' addresses
const WJ = WP + K; // WJ ..: the rows' addresses plus J
const XV = WJ + K; // XV ..: the rows' inputs in four lanes (v128)
const XI = XV + K; // f32
const I32_LOCALS = 6 + 2 * K; // I .. OJ, WP .., WJ ..
const V128_LOCALS = K;

const get = (l: number): number[] => [LOCAL_GET, l];
const set = (l: number): number[] => [LOCAL_SET, l];
const i32 = (n: number): number[] => [I32_CONST, ...sleb(n)];
const add = (l: number, n: number): number[] => [...get(l), ...i32(n), I32_ADD, ...set(l)];
const ZERO4 = [...V128_CONST, ...new Array(16).fill(0)];

/**
 * Lists the inputs that are not zero: (i · rowBytes, x[i]) at list, 8 bytes each; LIST_END after
 * the last. Every input is written and the end moves past it only when it is not zero: no branch
 * to mispredict on inputs that are zero or not at random.
 */
const LIST_INPUTS: number[] = [
  ...get(LIST), ...set(LIST_END),
  ...i32(0), ...set(I),
  ...BLOCK,
  ...LOOP,
  ...get(I), ...get(N_IN), I32_GE_U, BR_IF, 1,
  ...get(X), ...get(I), ...i32(2), I32_SHL, I32_ADD, F32_LOAD, 2, 0, ...set(XI),
  ...get(LIST_END), ...get(I), ...get(ROW_BYTES), I32_MUL, I32_STORE, 2, 0,
  ...get(LIST_END), ...get(XI), F32_STORE, 2, 4,
  ...get(LIST_END), ...get(XI), F32_CONST, 0, 0, 0, 0, F32_NE, ...i32(3), I32_SHL, I32_ADD, ...set(LIST_END),
  ...add(I, 1),
  BR, 0,
  END,
  END,
];

const V4 = [0, 1, 2, 3];

/** A loop over the row's bytes J = 0, 64, … (a 16-output piece a step) with OJ = out + J and WJ + r = WP + r + J for the first `rows` rows. */
function rowLoop(rows: number, body: number[]): number[] {
  return [
    ...i32(0), ...set(J),
    ...BLOCK,
    ...LOOP,
    ...get(J), ...get(ROW_BYTES), I32_GE_U, BR_IF, 1,
    ...get(OUT), ...get(J), I32_ADD, ...set(OJ),
    ...Array.from({ length: rows }, (_, r) => [...get(WP + r), ...get(J), I32_ADD, ...set(WJ + r)]).flat(),
    ...body,
    ...add(J, 64),
    BR, 0,
    END,
    END,
  ];
}

/** out's piece at OJ += x_r · row r's piece, r = 0 .. rows − 1 in order, four lanes at a time. */
function addRows(rows: number): number[] {
  return V4.flatMap((u) => [
    ...get(OJ),
    ...get(OJ), ...V128_LOAD, ...v128At(16 * u),
    ...Array.from({ length: rows }, (_, r) => [...get(XV + r), ...get(WJ + r), ...V128_LOAD, ...v128At(16 * u), ...F32X4_MUL, ...F32X4_ADD]).flat(),
    ...V128_STORE, ...v128At(16 * u),
  ]);
}

/** Row r's address and input from the list entry at P + 8·r. */
const loadEntry = (r: number): number[] => [
  ...get(W), ...get(P), I32_LOAD, 2, 8 * r, I32_ADD, ...set(WP + r),
  ...get(P), F32_LOAD, 2, 8 * r + 4, ...F32X4_SPLAT, ...set(XV + r),
];

const DENSE_BODY: number[] = [
  ...get(N_OUT), ...i32(2), I32_SHL, ...set(ROW_BYTES),
  ...LIST_INPUTS,
  // out = b
  ...rowLoop(0, V4.flatMap((u) => [...get(OJ), ...get(B), ...get(J), I32_ADD, ...V128_LOAD, ...v128At(16 * u), ...V128_STORE, ...v128At(16 * u)])),
  ...get(LIST), ...set(P),
  // K rows a pass while K remain, then one at a time.
  ...BLOCK,
  ...LOOP,
  ...get(P), ...i32(8 * K), I32_ADD, ...get(LIST_END), I32_GT_U, BR_IF, 1,
  ...Array.from({ length: K }, (_, r) => loadEntry(r)).flat(),
  ...rowLoop(K, addRows(K)),
  ...add(P, 8 * K),
  BR, 0,
  END,
  END,
  ...BLOCK,
  ...LOOP,
  ...get(P), ...get(LIST_END), I32_GE_U, BR_IF, 1,
  ...loadEntry(0),
  ...rowLoop(1, addRows(1)),
  ...add(P, 8),
  BR, 0,
  END,
  END,
  // ReLU
  ...get(RELU),
  ...IF,
  ...rowLoop(0, V4.flatMap((u) => [...get(OJ), ...get(OJ), ...V128_LOAD, ...v128At(16 * u), ...ZERO4, ...F32X4_MAX, ...V128_STORE, ...v128At(16 * u)])),
  END,
  END,
];

function moduleBytes(): Uint8Array {
  const type = [0x60, ...vector(Array.from({ length: 8 }, () => [I32])), 0];
  const memoryImport = [...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(1)];
  const locals = vector([[I32_LOCALS, I32], [V128_LOCALS, V128], [1, F32]]);
  const body = [...locals, ...DENSE_BODY];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector([type])),
    ...section(2, vector([memoryImport])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name('dense'), 0x00, 0]])),
    ...section(10, vector([[...uleb(body.length), ...body]])),
  ]);
}

// The part of the WebAssembly API used here (the lab's TypeScript libraries do not declare it).
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum?: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | undefined;

/** The dense layer over a memory: `dense(x, nIn, w, b, out, nOut, relu, list)` as above. */
export type Dense = (x: number, nIn: number, w: number, b: number, out: number, nOut: number, relu: number, list: number) => void;

/** A memory of `bytes` (whole 64 KiB pages) for a network's weights and buffers; it never grows, so views of it stay valid. */
export function kernelMemory(bytes: number): WasmMemory {
  const pages = Math.max(1, Math.ceil(bytes / 65536));
  return new wasm.Memory({ initial: pages, maximum: pages });
}

/** The kernel instantiated over `memory` (the module is compiled once a process). */
export function denseKernel(memory: WasmMemory): Dense {
  compiled ??= new wasm.Module(moduleBytes());
  return new wasm.Instance(compiled, { env: { memory } }).exports.dense as Dense;
}

/** Lanes a layer's outputs are padded to: the kernel's unrolled step (four vectors of four). */
export const DENSE_LANES = 16;
