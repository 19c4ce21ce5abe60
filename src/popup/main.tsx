/**
 * The popup's browser shell: the only popup file that touches extension
 * APIs. Everything else gets them through {@link App}'s `deps`.
 */
import { render } from 'preact';
import browser from 'webextension-polyfill';
import { send } from '../messaging/client.ts';
import { App } from './app.tsx';

/** URL of the active tab of the current window (readable thanks to `activeTab`), or null. */
async function currentTabUrl(): Promise<string | null> {
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.url ?? null;
}

const root = document.getElementById('app');
if (root !== null) render(<App deps={{ send, currentTabUrl }} />, root);
