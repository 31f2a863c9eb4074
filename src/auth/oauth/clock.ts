/** Time as the OAuth module sees it: injectable so that expiry is tested without sleeping. */
export type Clock = () => number; // epoch milliseconds

export const systemClock: Clock = () => Date.now();

/** ISO text of an epoch-millisecond instant (storage/values.ts representation). */
export const isoAt = (ms: number): string => new Date(ms).toISOString();

/** Epoch milliseconds of a stored ISO timestamp. */
export const msOf = (iso: string): number => Date.parse(iso);
