/**
 * A minimal client of Firefox's remote debugging protocol (the one
 * about:debugging and web-ext speak), for the two things WebDriver BiDi
 * cannot do with an add-on:
 * - run code in its background page (to open the first extension page: BiDi
 *   refuses to navigate a tab to a `moz-extension://` URL);
 * - stop its background page, as Firefox does after the event page has been
 *   idle (about:debugging's *Terminate background script*), so tests can check
 *   that a crawl survives it.
 *
 * Firefox serves the protocol when started with `--start-debugger-server PORT`
 * and the prefs of {@link RDP_PREFS}. Packets are `length:JSON` over TCP; a
 * reply comes from the actor asked and has no `type`, events have one.
 */
import { connect, type Socket } from 'node:net';

/** What Firefox needs to accept a debugger connection from this process without a prompt. */
export const RDP_PREFS: Readonly<Record<string, boolean>> = {
  'devtools.debugger.remote-enabled': true,
  'devtools.chrome.enabled': true,
  'devtools.debugger.prompt-connection': false,
};

interface Packet {
  from: string;
  type?: string;
  error?: string;
  message?: string;
  [key: string]: unknown;
}

/** An add-on as `listAddons` describes it. */
export interface AddonForm {
  actor: string;
  id: string;
  /** `RUNNING` or `STOPPED` for an event page. */
  backgroundScriptStatus?: string;
  manifestURL?: string;
}

export class RdpClient {
  private buffer = Buffer.alloc(0);
  /** Requests waiting for their reply, by actor (the protocol answers each actor's requests in order). */
  private readonly waiting = new Map<string, { resolve: (p: Packet) => void; reject: (e: Error) => void }[]>();
  private readonly listeners = new Set<(p: Packet) => void>();
  private closedError: Error | null = null;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (data: Buffer) => this.read(data));
    const fail = (error: Error): void => {
      this.closedError ??= error;
      for (const queue of this.waiting.values()) for (const w of queue) w.reject(this.closedError);
      this.waiting.clear();
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the Firefox debugger connection closed')));
  }

  /**
   * Connects to Firefox's debugger server on 127.0.0.1:`port`, retrying until `timeoutMs` (it starts with the browser).
   * @throws Error when no connection is accepted in time.
   */
  static async connect(port: number, timeoutMs = 10_000): Promise<RdpClient> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const client = await new Promise<RdpClient>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          const client = new RdpClient(socket);
          // The server greets first, from "root".
          const off = client.on((packet) => {
            if (packet.from === 'root' && packet['applicationType'] !== undefined) {
              off();
              resolve(client);
            }
          });
          socket.once('error', reject);
        });
        return client;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`could not reach Firefox's debugger on port ${port}: ${String(error)}`, { cause: error });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  private read(data: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, data]);
    for (;;) {
      const colon = this.buffer.indexOf(58);
      if (colon < 0) return;
      const length = Number(this.buffer.subarray(0, colon).toString('latin1'));
      if (this.buffer.length < colon + 1 + length) return;
      const packet = JSON.parse(this.buffer.subarray(colon + 1, colon + 1 + length).toString('utf8')) as Packet;
      this.buffer = this.buffer.subarray(colon + 1 + length);
      for (const listener of this.listeners) listener(packet);
      // An event (it has a type); replies have none, or carry an error.
      if (packet.type !== undefined && packet.error === undefined) continue;
      const queue = this.waiting.get(packet.from);
      const waiter = queue?.shift();
      if (waiter === undefined) continue;
      if (packet.error !== undefined) waiter.reject(new Error(`${packet.error}: ${packet.message ?? ''}`));
      else waiter.resolve(packet);
    }
  }

  /** Calls `listener` with every packet (replies and events); returns how to stop. */
  on(listener: (packet: Packet) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends a request to `to` and resolves with its reply. @throws Error on an error reply. */
  request(to: string, type: string, fields: Record<string, unknown> = {}): Promise<Packet> {
    if (this.closedError !== null) return Promise.reject(this.closedError);
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(to) ?? [];
      queue.push({ resolve, reject });
      this.waiting.set(to, queue);
      const text = JSON.stringify({ to, type, ...fields });
      this.socket.write(`${Buffer.byteLength(text)}:${text}`);
    });
  }

  /** The add-on `id` as the debugger sees it, or undefined when not installed. */
  async addon(id: string): Promise<AddonForm | undefined> {
    const reply = await this.request('root', 'listAddons');
    return (reply['addons'] as AddonForm[]).find((addon) => addon.id === id);
  }

  /**
   * Evaluates `expression` in the add-on's background page (starting it if stopped) and resolves
   * when Firefox has run it; the result is not returned (only its success).
   *
   * The connection then watches the add-on's pages, and Firefox never stops an idle event page that
   * DevTools watch: close this connection after the call (use a connection of its own). Asking to
   * unwatch instead (`unwatchTargets`) was tried: it also broke WebDriver BiDi's view of the tabs
   * (puppeteer's `browser.pages()` hung).
   * @throws Error when the background page is not found or the expression throws.
   */
  async evaluateInBackground(addonId: string, expression: string, timeoutMs = 10_000): Promise<void> {
    const addon = await this.addon(addonId);
    if (addon === undefined) throw new Error(`no add-on ${addonId} in Firefox`);
    const watcher = (await this.request(addon.actor, 'getWatcher'))['actor'] as string;
    const forms: { url?: string; consoleActor?: string }[] = [];
    const off = this.on((packet) => {
      if (packet.type === 'target-available-form')
        forms.push(packet['target'] as { url?: string; consoleActor?: string });
    });
    try {
      await this.request(watcher, 'watchTargets', { targetType: 'frame' });
      const deadline = Date.now() + timeoutMs;
      let target: { consoleActor?: string } | undefined;
      while ((target = forms.find((form) => form.url?.endsWith('/_generated_background_page.html'))) === undefined) {
        if (Date.now() > deadline)
          throw new Error(`the background page of ${addonId} did not show up within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const consoleActor = target.consoleActor ?? '';
      const result = new Promise<Packet>((resolve) => {
        const stop = this.on((packet) => {
          if (packet.from === consoleActor && packet.type === 'evaluationResult') {
            stop();
            resolve(packet);
          }
        });
      });
      await this.request(consoleActor, 'evaluateJSAsync', { text: expression });
      const outcome = await result;
      if (outcome['hasException'] === true) {
        throw new Error(
          `the background page threw: ${JSON.stringify(outcome['exceptionMessage'] ?? outcome['exception'])}`,
        );
      }
    } finally {
      off();
    }
  }

  /** Stops the add-on's background page now, as Firefox does when an event page is idle. */
  async terminateBackground(addonId: string): Promise<void> {
    const addon = await this.addon(addonId);
    if (addon === undefined) throw new Error(`no add-on ${addonId} in Firefox`);
    await this.request(addon.actor, 'terminateBackgroundScript');
  }

  close(): void {
    this.socket.destroy();
  }
}
