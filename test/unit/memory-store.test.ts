import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryCrawlStore } from '../../src/storage/memory-store.ts';
import { storeContract } from '../support/store-contract.ts';

storeContract('MemoryCrawlStore', async () => new MemoryCrawlStore(), {
  describe,
  it,
  assertEqual: (actual, expected) => assert.deepStrictEqual(actual, expected),
});
