/**
 * The pages' side of the protocol: `send('crawl/start', {...})` resolves with
 * the typed reply or rejects with a {@link TabcrawlError}.
 */
import browser from 'webextension-polyfill';
import {
  isEventMessage,
  TabcrawlError,
  type OnEvent,
  type Reply,
  type ReplyOf,
  type RequestOf,
  type RequestType,
} from './protocol.ts';

/** Sends one request to the background and unwraps its reply. */
export async function send<K extends RequestType>(type: K, payload: RequestOf<K>): Promise<ReplyOf<K>> {
  const reply = (await browser.runtime.sendMessage({ type, payload })) as Reply<K> | undefined;
  if (reply === undefined || reply === null) {
    throw new TabcrawlError({ code: 'internal', message: `no answer from the background to ${type}` });
  }
  if (!reply.ok) throw new TabcrawlError(reply.error);
  return reply.value;
}

/** The function type of {@link send}, so components can take a fake one in tests. */
export type Send = typeof send;

/**
 * Listens to the background's events of one type (see `Events` in
 * `protocol.ts`). The listener never answers: requests stay the background's.
 */
export const onEvent: OnEvent = (type, listener) => {
  const onMessage = (message: unknown): undefined => {
    if (isEventMessage(message) && message.event === type) listener(message.payload);
    return undefined;
  };
  browser.runtime.onMessage.addListener(onMessage);
  return () => browser.runtime.onMessage.removeListener(onMessage);
};
