/**
 * A crawl's custom rules, parsed once per distinct list of specs (the page reader asks for every page).
 * Settings were checked before the crawl started (`validateSettings`): a spec that no longer parses (a crawl
 * stored by another version) is left out here, never thrown.
 */
import type { CrawlSettings } from '../crawl-settings.ts';
import { NO_RULES, parseRules, type CustomRules } from './rule-spec.ts';

let last: { key: string; rules: CustomRules } | null = null;

/** The parsed searches and extractions of these settings (lists missing in older crawls read as empty). */
export function rulesOf(settings: Pick<CrawlSettings, 'searches' | 'extractions'>): CustomRules {
  const searches = settings.searches ?? [];
  const extractions = settings.extractions ?? [];
  if (searches.length === 0 && extractions.length === 0) return NO_RULES;
  const key = JSON.stringify([searches, extractions]);
  if (last?.key !== key) last = { key, rules: parseRules(searches, extractions).rules };
  return last.rules;
}
