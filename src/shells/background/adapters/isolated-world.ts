/**
 * Reading and scrolling a rendered page from an isolated world of its main frame
 * (`Page.createIsolatedWorld`): the page's scripts share the DOM but none of the world's globals, so
 * they cannot change what reads it. Each command is bounded in time: a page busy in a loop holds its
 * main thread and these commands with it, and `chrome.debugger` may not stop its script
 * (`Runtime.terminateExecution` "is not allowed for untrusted clients").
 */
import type { DebuggerTarget } from './debugger-target.ts';
import { scriptErrorText, type ExceptionDetails } from './page-guards.ts';

/** How long each command of a read or a scroll may take, in ms. */
export const READ_TIMEOUT_MS = 2_000;

/**
 * The isolated world's expression that reads the live DOM: the doctype and `outerHTML`, cut at `maxChars`
 * in the page (so no more crosses over) with one character more to tell a cut. The page's scripts cannot
 * change what these names mean in an isolated world.
 */
export function readDomExpression(maxChars: number): string {
  return `(() => {
    const d = document.doctype;
    const doctype = d === null ? '' : '<!DOCTYPE ' + d.name + (d.publicId ? ' PUBLIC "' + d.publicId + '"' : '') +
      (d.systemId ? (d.publicId ? '' : ' SYSTEM') + ' "' + d.systemId + '"' : '') + '>\\n';
    const root = document.documentElement;
    return (doctype + (root === null ? '' : root.outerHTML)).slice(0, ${Math.max(0, Math.floor(maxChars)) + 1});
  })()`;
}

/** Scrolls the page once to the bottom, so that content loaded on scroll is asked for. */
export const SCROLL_EXPRESSION =
  'window.scrollTo(0, document.documentElement === null ? 0 : document.documentElement.scrollHeight)';

/**
 * Evaluates `expression` in an isolated world of the main frame and returns its string value.
 * @throws when a command takes more than {@link READ_TIMEOUT_MS} or the expression throws.
 */
async function evaluate(target: DebuggerTarget, expression: string): Promise<string> {
  const tree = await target.send<{ frameTree: { frame: { id: string } } }>(
    target.root,
    'Page.getFrameTree',
    {},
    READ_TIMEOUT_MS,
  );
  const world = await target.send<{ executionContextId: number }>(
    target.root,
    'Page.createIsolatedWorld',
    { frameId: tree.frameTree.frame.id, worldName: 'tabcrawl-render' },
    READ_TIMEOUT_MS,
  );
  const evaluated = await target.send<{ result?: { value?: unknown }; exceptionDetails?: ExceptionDetails }>(
    target.root,
    'Runtime.evaluate',
    { expression, contextId: world.executionContextId, returnByValue: true },
    READ_TIMEOUT_MS,
  );
  if (evaluated.exceptionDetails !== undefined) throw new Error(scriptErrorText(evaluated.exceptionDetails));
  const value = evaluated.result?.value;
  return typeof value === 'string' ? value : '';
}

/** Scrolls the page once to the bottom. @throws as {@link evaluate}. */
export async function scrollToBottom(target: DebuggerTarget): Promise<void> {
  await evaluate(target, SCROLL_EXPRESSION);
}

/**
 * The live DOM with its doctype, at most `maxChars` characters (`truncated` when cut).
 * @throws as {@link evaluate}.
 */
export async function readDom(target: DebuggerTarget, maxChars: number): Promise<{ html: string; truncated: boolean }> {
  const html = await evaluate(target, readDomExpression(maxChars));
  const truncated = html.length > maxChars;
  return { html: truncated ? html.slice(0, maxChars) : html, truncated };
}
