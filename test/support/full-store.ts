/**
 * An in-memory store that behaves as IndexedDB over its quota: once one
 * transaction has been refused for lack of space, every later one is refused
 * too (even a small write), until the test frees space.
 */
import { StorageFullError } from '../../src/core/crawl/ports.ts';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';

export interface FullStore {
  store: MemoryCrawlStore;
  /** Lifts the limit: the next transactions are written. */
  freeSpace(): void;
}

/** A store that refuses writes past `bodyBytesLimit` body bytes, then every write. */
export function storeThatFillsUp(bodyBytesLimit: number): FullStore {
  const store = new MemoryCrawlStore({ bodyBytesLimit });
  let full = false;
  const transaction = store.transaction.bind(store);
  store.transaction = async (work) => {
    if (full) throw new StorageFullError('over quota');
    try {
      return await transaction(work);
    } catch (error) {
      if (error instanceof StorageFullError) full = true;
      throw error;
    }
  };
  return {
    store,
    freeSpace: () => {
      full = false;
      store.bodyBytesLimit = Infinity;
    },
  };
}
