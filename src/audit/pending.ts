/** Findings a collector has judged during its scans, emitted when the scans are over. */
import type { CheckId } from './checks.ts';
import type { Emit, RelatedUrls } from './engine.ts';

export class PendingFindings {
  private readonly list: { check: CheckId; url: string; detail: string; related: RelatedUrls | undefined }[] = [];

  add(check: CheckId, url: string, detail: string, related?: RelatedUrls): void {
    this.list.push({ check, url, detail, related });
  }

  emitTo(emit: Emit): void {
    for (const { check, url, detail, related } of this.list) emit(check, url, detail, related);
  }
}

/** A list of URLs as related URLs (all of them counted). */
export function relatedOf(urls: readonly string[]): RelatedUrls {
  return { urls: [...urls], count: urls.length };
}

/** `n thing` / `n things`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
