/** Hex SHA-256 of some bytes, with Web Crypto (present in service workers, pages and Node 20). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // Web Crypto takes only ArrayBuffer-backed views; copy the rare shared one.
  const view =
    bytes.buffer instanceof ArrayBuffer
      ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : bytes.slice();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', view));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
