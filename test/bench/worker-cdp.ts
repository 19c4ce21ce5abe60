/**
 * A DevTools protocol session on the extension's service worker, for the
 * heap and CPU profile of the crawl loop.
 *
 * Playwright's `newCDPSession` takes only pages and frames, and a persistent
 * context gives no browser session. So the session goes through a page's
 * CDP session: `Target.attachToTarget` on the worker's target, unflattened,
 * and every command wrapped in `Target.sendMessageToTarget` (its answers come
 * back as `Target.receivedMessageFromTarget` events). Being attached keeps
 * the worker alive, which a crawl does anyway.
 */
import type { CDPSession } from 'playwright-core';
import type { ExtensionSession } from '../../src/shells/cli/extension-driver.ts';

/** A command channel to the worker. */
export interface WorkerCdp {
  /**
   * Sends one protocol command to the worker and resolves with its result.
   * @throws Error with the protocol's message when the worker answers an error, or after `timeoutMs`.
   */
  send<T = unknown>(method: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  /** Detaches from the worker and closes the page session. */
  detach(): Promise<void>;
}

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
}

interface ProtocolAnswer {
  id?: number;
  result?: unknown;
  error?: { message: string };
}

/** Attaches to the service worker of the session's extension. */
export async function attachToWorker(session: ExtensionSession): Promise<WorkerCdp> {
  const page = session.context.pages()[0] ?? (await session.context.newPage());
  const cdp: CDPSession = await session.context.newCDPSession(page);
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
  const worker = targetInfos.find(
    (t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${session.extensionId}/`),
  );
  if (worker === undefined) {
    await cdp.detach();
    throw new Error('the extension has no running service worker to attach to');
  }
  const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false })) as {
    sessionId: string;
  };

  let nextId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const answer = JSON.parse(event.message) as ProtocolAnswer;
    if (answer.id === undefined) return;
    const waiter = pending.get(answer.id);
    pending.delete(answer.id);
    if (answer.error !== undefined) waiter?.reject(new Error(answer.error.message));
    else waiter?.resolve(answer.result);
  });

  return {
    send<T>(method: string, params: Record<string, unknown> = {}, timeoutMs = 120_000): Promise<T> {
      const id = ++nextId;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method}: no answer from the worker in ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value as T);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        cdp
          .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
          .catch((error: unknown) => {
            pending.delete(id);
            clearTimeout(timer);
            reject(error instanceof Error ? error : new Error(String(error)));
          });
      });
    },
    async detach(): Promise<void> {
      await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
      await cdp.detach().catch(() => undefined);
    },
  };
}

/** The worker's JS heap after a full garbage collection, in bytes: what the crawl keeps, not what it has yet to free. */
export async function liveHeapBytes(worker: WorkerCdp): Promise<number> {
  await worker.send('HeapProfiler.collectGarbage');
  const { usedSize } = await worker.send<{ usedSize: number }>('Runtime.getHeapUsage');
  return usedSize;
}
