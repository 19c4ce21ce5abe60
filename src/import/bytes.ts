/** Joins byte arrays into one (the array itself when there is one). */
export function concat(
  parts: readonly Uint8Array[],
  length = parts.reduce((sum, part) => sum + part.length, 0),
): Uint8Array {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
