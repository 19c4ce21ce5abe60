/**
 * The one error the archive readers throw: what went wrong, in which file,
 * at which byte. Every message starts with the file's name and names a byte
 * offset, so a user can tell a cut download from a file that is not an
 * archive at all. Records read before the error have been handed out already
 * and stay usable.
 */

/**
 * What kind of problem stopped the reading:
 * - `truncated`: the data ends inside a record (or a gzip member, or a zip entry);
 * - `corrupt`: gzip or zip data that does not decode;
 * - `not-warc`: bytes where a WARC record should start that are not one (or a header too long to be one);
 * - `not-archive`: a file that is neither a WARC nor a WACZ;
 * - `unsupported`: a zip feature this reader does not read (encryption, a compression method other than stored or deflate).
 */
export type ArchiveErrorKind = 'truncated' | 'corrupt' | 'not-warc' | 'not-archive' | 'unsupported';

export class ArchiveReadError extends Error {
  override readonly name = 'ArchiveReadError';

  constructor(
    readonly kind: ArchiveErrorKind,
    /** The file as the user knows it (`site.warc.gz`, or `site.wacz › archive/data.warc.gz` for a WARC inside a WACZ). */
    readonly fileName: string,
    /** Byte offset in that file (in a `.warc.gz`, in the compressed file; in a WACZ entry, in the entry) where the problem is. */
    readonly offset: number,
    /** The message, without the file name and offset (they are added in front). */
    readonly detail: string,
    /** How many records were read before the problem (0 when not reading records). */
    readonly recordsRead = 0,
  ) {
    super(
      `${fileName}: ${detail} (at byte ${offset}${recordsRead > 0 ? `; ${recordsRead} record${recordsRead === 1 ? '' : 's'} read before it` : ''})`,
    );
  }
}

/** Most characters of a value (a URL, a name, a field) shown in a message: the rest is cut and counted. */
export const MAX_SHOWN = 200;

/** A value for a message: as it is up to {@link MAX_SHOWN} characters, else its start and how many more it has. */
export function shown(value: string, max = MAX_SHOWN): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length - max} more characters)`;
}
