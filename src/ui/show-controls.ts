/**
 * Every text a page renders, crawled or not, with its control characters written out: a title, an anchor
 * text, a URL, a header, a warning quoting a `WARC-Target-URI` cannot hide a NUL or an ESC, and an RLO
 * cannot make `\u202Egnp.exe` read as `exe.png` (it shows as `\u202Egnp.exe`). One hook on Preact's
 * vnodes, installed by each page's shell before it renders, so no view can forget it: text nodes and
 * the `title` and `aria-label` attributes go through {@link visibleTextControls}. What the user types
 * (an input's `value`) is left alone. Direction is kept to each piece of crawled text by CSS
 * (`unicode-bidi: isolate`, `theme.css`).
 */
import { options, type VNode } from 'preact';
import { visibleTextControls } from './visible-controls.ts';

/** Attributes that show text: a tooltip, what a screen reader says. */
const SHOWN_ATTRIBUTES = ['title', 'aria-label'] as const;

let isInstalled = false;

/** Installs the hook (once; later calls do nothing). */
export function showControlsVisibly(): void {
  if (isInstalled) return;
  isInstalled = true;
  const previous = options.vnode;
  options.vnode = (vnode: VNode) => {
    const node = vnode as VNode<unknown>;
    if (node.type === null) {
      if (typeof node.props === 'string') (node as { props: unknown }).props = visibleTextControls(node.props);
    } else if (typeof node.type === 'string' && typeof node.props === 'object' && node.props !== null) {
      const props = node.props as Record<string, unknown>;
      for (const name of SHOWN_ATTRIBUTES) {
        const value = props[name];
        if (typeof value === 'string') props[name] = visibleTextControls(value);
      }
    }
    previous?.(vnode);
  };
}
