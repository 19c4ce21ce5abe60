/**
 * Chromium with the built extension, driven over the DevTools protocol on a
 * pipe (`--remote-debugging-pipe`) and nothing else: unlike Playwright, it
 * never attaches to the extension's service worker, so the worker lives and
 * dies as it would for a user (PLATFORM.md: an attached debugger keeps it
 * alive). For tests of the worker's lifetime.
 *
 * The pipe protocol: JSON messages separated by a NUL byte, written to the
 * browser's fd 3 and read from its fd 4.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { chromiumArgs } from '../../src/shells/cli/extension-driver.ts';
import type { ReplyOf, RequestOf, RequestType } from '../../src/messaging/protocol.ts';

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

type EventHandler = (params: Record<string, unknown>, sessionId: string | undefined) => void;

export interface PipeBrowser {
  readonly extensionId: string;
  /** Targets of the extension's service worker created and destroyed so far, in order (Chromium's own reports). */
  readonly workerEvents: { event: 'created' | 'destroyed'; at: number }[];
  /** Sends one request to the background from an extension page, as the popup does (a message wakes the worker). */
  request<K extends RequestType>(type: K, payload: RequestOf<K>): Promise<ReplyOf<K>>;
  close(): Promise<void>;
}

/**
 * Launches Chromium on `profileDir` (created; removed by `close`) with a copy of
 * `distDir` loaded, and opens one extension page to send messages from.
 */
export async function launchPipeBrowser(options: {
  chromePath: string;
  distDir: string;
  profileDir: string;
}): Promise<PipeBrowser> {
  const { profileDir } = options;
  const distDir = join(profileDir, 'extension');
  for (const dir of ['user-data', 'tmp', 'home']) mkdirSync(join(profileDir, dir), { recursive: true });
  cpSync(options.distDir, distDir, { recursive: true });
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const child: ChildProcess = spawn(
    options.chromePath,
    [
      ...chromiumArgs(distDir, { headless: true, isRoot }),
      `--user-data-dir=${join(profileDir, 'user-data')}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
      env: { ...process.env, TMPDIR: join(profileDir, 'tmp'), HOME: join(profileDir, 'home') },
    },
  );
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;

  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }
  >();
  const handlers = new Map<string, EventHandler[]>();
  let buffered = '';
  output.setEncoding('utf8');
  output.on('data', (text: string) => {
    buffered += text;
    for (let end = buffered.indexOf('\0'); end !== -1; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
        method?: string;
        params?: Record<string, unknown>;
        sessionId?: string;
      };
      buffered = buffered.slice(end + 1);
      if (message.id !== undefined) {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error.message));
        else waiter?.resolve(message.result ?? {});
      } else if (message.method !== undefined) {
        for (const handler of handlers.get(message.method) ?? []) handler(message.params ?? {}, message.sessionId);
      }
    }
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));

  const send = (
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) })}\0`);
    });
  const on = (method: string, handler: EventHandler): void =>
    void handlers.set(method, [...(handlers.get(method) ?? []), handler]);

  const workerEvents: PipeBrowser['workerEvents'] = [];
  const isWorker = (info: TargetInfo): boolean =>
    info.type === 'service_worker' && info.url.startsWith('chrome-extension://');
  const workerIds = new Set<string>();
  let extensionId = '';
  const found = new Promise<void>((done) => {
    on('Target.targetCreated', (params) => {
      const info = params['targetInfo'] as TargetInfo;
      if (!isWorker(info)) return;
      workerIds.add(info.targetId);
      workerEvents.push({ event: 'created', at: Date.now() });
      extensionId = new URL(info.url).host;
      done();
    });
  });
  on('Target.targetDestroyed', (params) => {
    if (workerIds.delete(String(params['targetId']))) workerEvents.push({ event: 'destroyed', at: Date.now() });
  });
  // Discovering targets reports them without attaching to them.
  await send('Target.setDiscoverTargets', { discover: true });
  await Promise.race([
    found,
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error('the extension service worker did not start in 15 s')), 15_000),
    ),
  ]);

  const { targetId } = (await send('Target.createTarget', {
    url: `chrome-extension://${extensionId}/src/shells/options/index.html`,
  })) as { targetId: string };
  const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
  await new Promise((done) => setTimeout(done, 500));

  return {
    get extensionId() {
      return extensionId;
    },
    workerEvents,
    async request<K extends RequestType>(type: K, payload: RequestOf<K>): Promise<ReplyOf<K>> {
      const expression = `chrome.runtime.sendMessage(${JSON.stringify({ type, payload })})`;
      const result = (await send(
        'Runtime.evaluate',
        { expression, awaitPromise: true, returnByValue: true },
        sessionId,
      )) as { result: { value?: { ok: boolean; value?: ReplyOf<K>; error?: { message: string } } } };
      const reply = result.result.value;
      if (reply?.ok !== true) throw new Error(`${type} failed: ${reply?.error?.message ?? 'no answer'}`);
      return reply.value as ReplyOf<K>;
    },
    async close(): Promise<void> {
      await send('Browser.close').catch(() => undefined);
      await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
      child.kill('SIGKILL');
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
}
