/**
 * Heap measurement for row 7: `heapUsed` after repeated full collections.
 *
 * Contract: needs `--expose-gc` (the launcher passes it for row 7); without
 * it `settledHeap` throws, so a row never reports an unsettled number.
 *
 * @module
 */

const gc = (globalThis as { gc?: () => void }).gc

/** heapUsed in bytes after `rounds` forced full GCs, with a turn of the event loop between them. */
export async function settledHeap(rounds = 4): Promise<number> {
  if (!gc) throw new Error('run with --expose-gc')
  for (let i = 0; i < rounds; i++) {
    gc()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return process.memoryUsage().heapUsed
}

export const MB = 1024 * 1024
