/** The part of npm @harvard-lil/js-wacz (which ships no types) that the tests use: pack WARCs into a WACZ. */
declare module '@harvard-lil/js-wacz' {
  export interface WACZOptions {
    /** Paths (or one glob) of the `.warc` / `.warc.gz` files to pack. */
    input: string | string[];
    /** Where the `.wacz` is written. */
    output: string;
    /** `datapackage.json`'s `mainPageUrl`. */
    url?: string;
    title?: string;
    /** A loglevel-like logger. */
    log?: Record<'info' | 'trace' | 'warn' | 'debug' | 'error', (...args: unknown[]) => void>;
  }
  export class WACZ {
    constructor(options: WACZOptions);
    /** Indexes the WARCs (in worker threads), detects pages, writes the WACZ. */
    process(verbose?: boolean): Promise<void>;
  }
}
