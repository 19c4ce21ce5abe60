/**
 * Reading and scrolling a Firefox render tab from the content scripts' isolated world
 * (`scripting.executeScript`): the page's scripts share the DOM but none of that world's globals, so they
 * cannot change what reads it. Each call is bounded in time: a page busy in a loop holds its main thread,
 * and the call with it.
 */
import browser from 'webextension-polyfill';
import { READ_TIMEOUT_MS } from './isolated-world.ts';

/** Runs `func(arg)` in the tab's main frame, isolated world; rejects after {@link READ_TIMEOUT_MS}. */
async function inTab<T>(tabId: number, func: (arg: number) => T, arg: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS);
  });
  try {
    const results = await Promise.race([
      browser.scripting.executeScript({ target: { tabId }, func, args: [arg] }),
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

/** Runs in the page: scrolls once to the bottom, so that content loaded on scroll is asked for. */
function scrollDocument(): number {
  window.scrollTo(0, document.documentElement === null ? 0 : document.documentElement.scrollHeight);
  return 0;
}

/** Scrolls the tab's page once to the bottom. @throws when it does not answer in time. */
export async function scrollTabToBottom(tabId: number): Promise<void> {
  await inTab(tabId, scrollDocument, 0);
}

/**
 * The live DOM with its doctype, at most `maxChars` characters (`truncated` when cut).
 * @throws when the page does not answer in time.
 */
export async function readDomInTab(tabId: number, maxChars: number): Promise<{ html: string; truncated: boolean }> {
  const limit = Math.max(0, Math.floor(maxChars));
  const read = await inTab(tabId, readDocument, limit);
  const html = typeof read === 'string' ? read : '';
  const truncated = html.length > limit;
  return { html: truncated ? html.slice(0, limit) : html, truncated };
}
