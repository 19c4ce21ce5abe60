/**
 * How many pages of a site on disk the `auto` rendering rule would render (docs/rendering.md, "Which pages
 * auto renders"): each `.html` file under a folder is read as the crawl reads a page (its links and facts,
 * then the rule's signals), and the rule's reasons are counted.
 *
 *   npx tsx test/bench/render-rule-survey.ts /usr/share/doc/python3.11/html
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { extractLinks } from '../../src/core/links/extract-links.ts';
import { renderReason, renderSignalsOf } from '../../src/core/page-facts/render-rule.ts';

/** Every `.html` file under `folder`, depth first. */
function htmlFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

const folder = process.argv[2];
if (folder === undefined) {
  console.error('usage: npx tsx test/bench/render-rule-survey.ts FOLDER');
  process.exit(2);
}
const files = htmlFiles(folder);
const rendered: string[] = [];
for (const file of files) {
  const html = readFileSync(file, 'utf8');
  const page = extractLinks(html, `http://127.0.0.1/${relative(folder, file)}`, 'utf-8', {});
  const why = renderReason('auto', renderSignalsOf(html), { words: page.facts.wordCount, links: page.links.length });
  if (why !== null) rendered.push(`${relative(folder, file)}: ${why}`);
}
const share = files.length === 0 ? 0 : (100 * rendered.length) / files.length;
console.log(`${files.length} pages, ${rendered.length} rendered under auto (${share.toFixed(2)} %)`);
for (const line of rendered) console.log(`  ${line}`);
