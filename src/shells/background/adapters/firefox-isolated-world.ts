/**
 * Reading and scrolling a Firefox render tab from the content scripts' isolated world
 * (`scripting.executeScript`): the page's scripts share the DOM but none of that world's globals, so they
 * cannot change what reads it. Each call is bounded in time: a page busy in a loop holds its main thread,
 * and the call with it.
 */
import browser from 'webextension-polyfill';
import { READ_TIMEOUT_MS } from './isolated-world.ts';
import { MAX_ERROR_CHARS, MAX_SCRIPT_ERRORS } from './page-guards.ts';

/**
 * Runs `func(...args)` in the tab's main frame, isolated world; rejects after {@link READ_TIMEOUT_MS}.
 * @param immediately injected as soon as Firefox can, not once the document is idle (`injectImmediately`).
 */
async function inTab<T, A extends number[]>(
  tabId: number,
  func: (...args: A) => T,
  args: A,
  immediately = false,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS);
  });
  try {
    const results = await Promise.race([
      browser.scripting.executeScript({ target: { tabId }, func, args, injectImmediately: immediately }),
      late,
    ]);
    const first = results[0] as { result?: unknown; error?: unknown } | undefined;
    if (first === undefined || first.error !== undefined) throw new Error(String(first?.error ?? 'no result'));
    return first.result as T;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs in the page (serialized by Firefox: it may use nothing outside itself): the doctype and
 * `outerHTML`, cut at `maxChars` + 1 characters in the page, so no more crosses over and a cut is told.
 */
function readDocument(maxChars: number): string {
  const d = document.doctype;
  const doctype =
    d === null
      ? ''
      : `<!DOCTYPE ${d.name}${d.publicId ? ` PUBLIC "${d.publicId}"` : ''}${
          d.systemId ? `${d.publicId ? '' : ' SYSTEM'} "${d.systemId}"` : ''
        }>\n`;
  const root = document.documentElement;
  return (doctype + (root === null ? '' : root.outerHTML)).slice(0, maxChars + 1);
}

/**
 * Runs in the page's isolated world (serialized by Firefox: it may use nothing outside itself): from now on,
 * keeps the text of each uncaught error and unhandled rejection of the page (at most `max`, each at most
 * `maxChars` characters) in a global of that world (`__tabcrawlScriptErrors`, which the page's scripts cannot
 * see), once per document.
 */
function watchErrors(max: number, maxChars: number): number {
  const world = globalThis as unknown as Record<string, string[] | undefined>;
  if (world['__tabcrawlScriptErrors'] !== undefined) return 0;
  const errors: string[] = [];
  world['__tabcrawlScriptErrors'] = errors;
  const keep = (text: string): void => {
    if (errors.length < max) errors.push(text.slice(0, maxChars));
  };
  window.addEventListener('error', (event) => {
    const error: unknown = event.error;
    keep(`Uncaught ${error instanceof Error ? `${error.name}: ${error.message}` : event.message}`);
  });
  window.addEventListener('unhandledrejection', (event) => {
    const reason: unknown = event.reason;
    keep(`Uncaught (in promise) ${reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason)}`);
  });
  return 0;
}

/** Runs in the page's isolated world: the errors {@link watchErrors} kept (none when it was not there). */
function keptErrors(): string[] {
  const kept = (globalThis as unknown as Record<string, unknown>)['__tabcrawlScriptErrors'];
  return Array.isArray(kept) ? kept.filter((text): text is string => typeof text === 'string') : [];
}

/**
 * Starts keeping the uncaught script errors of the tab's document, injected as soon as Firefox can: call it
 * when the tab reports the page's URL (its document committed). Errors thrown before it runs (an inline
 * script early in the page) are missed: Firefox runs an extension's script before the page's only from a
 * content script registered for every tab, which Tabcrawl does not have. @throws when the page does not answer.
 */
export async function watchScriptErrors(tabId: number): Promise<void> {
  await inTab(tabId, watchErrors, [MAX_SCRIPT_ERRORS, MAX_ERROR_CHARS], true);
}

/** The script errors kept in the tab's document since {@link watchScriptErrors}. @throws when the page does not answer. */
export async function readScriptErrors(tabId: number): Promise<string[]> {
  const errors = await inTab(tabId, keptErrors, []);
  return Array.isArray(errors)
    ? errors.slice(0, MAX_SCRIPT_ERRORS).map((text) => String(text).slice(0, MAX_ERROR_CHARS))
    : [];
}

/** Runs in the page: scrolls once to the bottom, so that content loaded on scroll is asked for. */
function scrollDocument(): number {
  window.scrollTo(0, document.documentElement === null ? 0 : document.documentElement.scrollHeight);
  return 0;
}

/** Scrolls the tab's page once to the bottom. @throws when it does not answer in time. */
export async function scrollTabToBottom(tabId: number): Promise<void> {
  await inTab(tabId, scrollDocument, []);
}

/**
 * The live DOM with its doctype, at most `maxChars` characters (`truncated` when cut).
 * @throws when the page does not answer in time.
 */
export async function readDomInTab(tabId: number, maxChars: number): Promise<{ html: string; truncated: boolean }> {
  const limit = Math.max(0, Math.floor(maxChars));
  const read = await inTab(tabId, readDocument, [limit]);
  const html = typeof read === 'string' ? read : '';
  const truncated = html.length > limit;
  return { html: truncated ? html.slice(0, limit) : html, truncated };
}
