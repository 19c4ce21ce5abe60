/** How the settings table writes values in its help, digests and hand-off sentences. Pure. */

/** Bytes in a MiB. */
export const MIB = 1024 * 1024;
/** A value as text. */
export const text = (value: unknown): string => String(value);
/** Milliseconds as the hand-off's header says them: `1.5 s`. */
export const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;
/** `1 site`, `2 sites`. */
export const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
