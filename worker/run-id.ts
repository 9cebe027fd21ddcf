// Run and batch ids: "run_" or "batch_" + time (so ids sort roughly by creation) + 16 random base-36 characters.
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A fresh, unguessable run id. */
export function newRunId(now = Date.now()): string {
  return newId('run', now);
}

/** A fresh batch id, made the same way. */
export function newBatchId(now = Date.now()): string {
  return newId('batch', now);
}

function newId(prefix: string, now: number): string {
  const random = crypto.getRandomValues(new Uint8Array(16));
  let suffix = '';
  for (const byte of random) suffix += ALPHABET[byte % 36];
  return `${prefix}_${now.toString(36).padStart(9, '0')}${suffix}`;
}
