/**
 * Custom search and extraction (issue 30, `src/core/custom-rules/`): the specs as users write them, refused
 * with a reason when wrong, and what each rule finds on planted pages, hostile ones included.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_COUNT, MAX_VALUES, MAX_VALUE_CHARS, applyRules } from '../../src/core/custom-rules/apply-rules.ts';
import { MAX_RULES, parseExtraction, parseRules, parseSearch } from '../../src/core/custom-rules/rule-spec.ts';
import { rulesOf } from '../../src/core/custom-rules/rules-of.ts';
import { RERUN_BATCH, rerunRules, type RerunStore } from '../../src/core/custom-rules/rerun-rules.ts';
import type { PageRecord } from '../../src/core/model.ts';
import { pageFixture } from '../support/store-contract.ts';
import { DEFAULT_SETTINGS, validateSettings } from '../../src/core/settings.ts';
import { readHtmlInto } from '../../src/core/crawl/kinds/page-kind.ts';
import { applyRender } from '../../src/core/crawl/render/rendered-page.ts';
import type { RenderOutcome } from '../../src/core/crawl/ports.ts';

/** The rules of these specs, which must all parse. */
function rules(searches: string[], extractions: string[] = []): ReturnType<typeof parseRules>['rules'] {
  const parsed = parseRules(searches, extractions);
  assert.deepEqual(parsed.problems, { searches: [], extractions: [] });
  return parsed.rules;
}

const PAGE = `<!DOCTYPE html>
<html lang="en"><head><title>Blue kettle</title>
<meta name="author" content="Ann   Lee">
<script type="application/ld+json">{"@type":"Product","sku":"K-17"}</script>
<script>ga('create', 'UA-1234-5');</script></head>
<body><h1>Blue <em>kettle</em></h1>
<p class="price">€ 12.50</p><p class="note">Discontinued. discontinued. DISCONTINUED.</p>
<table><tr><td class="price">€ 9</td></tr></table>
<ul><li>one</li><LI>two</LI><li>three</li></ul>
<a href="/a" data-sku="SKU-1">a</a><a href="/b" data-sku="SKU-22">b</a>
</body></html>`;

describe('custom search and extraction specs', () => {
  it('reads every kind of rule', () => {
    assert.deepEqual(parseSearch('old=Discontinued'), {
      ok: true,
      value: { name: 'old', rule: 'Discontinued', match: { type: 'text', text: 'Discontinued' } },
    });
    assert.deepEqual(parseSearch('x=regex:(?i)ua-\\d+'), {
      ok: true,
      value: {
        name: 'x',
        rule: 'regex:(?i)ua-\\d+',
        match: { type: 'regex', source: 'ua-\\d+', flags: 'iu', pattern: /ua-\d+/giu },
      },
    });
    // text: escapes a text that starts like a rule; the first = splits, later ones are the rule's.
    assert.deepEqual(parseSearch('lit=text:regex:a=b'), {
      ok: true,
      value: { name: 'lit', rule: 'text:regex:a=b', match: { type: 'text', text: 'regex:a=b' } },
    });
    assert.deepEqual(parseExtraction('price = css: .price'), {
      ok: true,
      value: { name: 'price', rule: ' css: .price', via: { type: 'css', selector: '.price' } },
    });
    const xpath = parseExtraction('a=xpath://meta[@name="author"]/@content');
    assert.ok(xpath.ok && xpath.value.via.type === 'xpath');
    // A pattern only the older syntax reads is taken without Unicode mode, not refused.
    assert.deepEqual(parseSearch('dash=regex:a\\-b{'), {
      ok: true,
      value: {
        name: 'dash',
        rule: 'regex:a\\-b{',
        match: { type: 'regex', source: 'a\\-b{', flags: '', pattern: new RegExp('a\\-b{', 'g') },
      },
    });
    const regex = parseExtraction('sku=regex:(?si)SKU-(\\d+)');
    assert.ok(regex.ok && regex.value.via.type === 'regex' && regex.value.via.flags === 'isu');
  });

  it('refuses each kind of mistake with a reason, naming the spec', () => {
    const wrong: [string, RegExp][] = [
      ['no equals sign', /NAME=RULE/],
      ['=text', /the name must be/],
      ['-bad=x', /the name must be/],
      [`${'n'.repeat(41)}=x`, /the name must be/],
      ['empty=', /empty/],
      ['long=' + 'x'.repeat(1001), /longer than 1000/],
      ['t=text:', /the text is empty/],
      ['r=regex:', /the pattern is empty/],
      ['r=regex:(', /not a valid pattern/],
      ['r=regex:(a+)+$', /nests repetition/],
      ['r=regex:(\\w+\\s?)*x', /nests repetition/],
    ];
    for (const [spec, message] of wrong) {
      const parsed = parseSearch(spec);
      assert.ok(!parsed.ok, spec);
      assert.match(parsed.message, message, spec);
    }
    const wrongExtractions: [string, RegExp][] = [
      ['a=.price', /css:, xpath: or regex:/],
      ['a=css:', /css rule is empty/],
      ['a=css:[[', /not a CSS selector/],
      ['a=css:p:nosuchpseudo', /not a CSS selector/],
      ['a=xpath://[', /not an XPath 1.0 expression/],
      ['a=xpath:', /xpath rule is empty/],
      ['a=regex:((a*)*)', /nests repetition/],
    ];
    for (const [spec, message] of wrongExtractions) {
      const parsed = parseExtraction(spec);
      assert.ok(!parsed.ok, spec);
      assert.match(parsed.message, message, spec);
    }
  });

  it('keeps names unique across searches and extractions, and at most 25 of each', () => {
    const { rules: kept, problems } = parseRules(['price=x', 'Other=y'], ['PRICE=css:p', 'b=css:b']);
    assert.deepEqual(
      kept.searches.map((r) => r.name),
      ['price', 'Other'],
    );
    assert.deepEqual(
      kept.extractions.map((r) => r.name),
      ['b'],
    );
    assert.match(problems.extractions[0]?.message ?? '', /"PRICE" is used twice/);
    const many = Array.from({ length: MAX_RULES + 3 }, (_, i) => `s${i}=t`);
    const capped = parseRules(many, []);
    assert.equal(capped.rules.searches.length, MAX_RULES);
    assert.deepEqual(
      capped.problems.searches.map((p) => p.message),
      [`at most ${MAX_RULES} searches`],
    );
  });

  it('are checked with the other settings, every bad spec named', () => {
    const result = validateSettings({
      startUrl: 'https://example.org/',
      searches: ['ok=x', 'bad'],
      extractions: ['p=css:[['],
    });
    assert.ok(!result.ok);
    assert.deepEqual(
      result.errors.map((e) => e.field),
      ['searches', 'extractions'],
    );
    assert.match(result.errors[0]?.message ?? '', /^Custom searches: "bad": write it as NAME=RULE/);
    assert.ok(!validateSettings({ startUrl: 'https://example.org/', searches: 'x=y' as never }).ok);
    const good = validateSettings({ startUrl: 'https://example.org/', searches: ['a=b'] });
    assert.ok(good.ok);
    assert.deepEqual(good.settings.extractions, []);
  });
});

describe('applying custom rules to a page', () => {
  it('counts searches: text case-sensitive, regex with its flags, 0 when absent', () => {
    const found = applyRules(
      PAGE,
      rules([
        'exact=Discontinued',
        'lower=discontinued',
        'any case=regex:(?i)discontinued',
        'tracker=regex:UA-\\d+-\\d+',
        'absent=out of stock',
        'empty matches=regex:x*',
      ]),
    );
    assert.deepEqual(found.searches, {
      exact: 1,
      lower: 1,
      'any case': 3,
      tracker: 1,
      absent: 0,
      // One empty match at every position, each counted once: the loop moves on after an empty match.
      'empty matches': PAGE.length + 1,
    });
    assert.deepEqual(found.extracted, {});
  });

  it('extracts with CSS, XPath and regex: the planted values, in document order', () => {
    const found = applyRules(
      PAGE,
      rules(
        [],
        [
          'price=css:.price',
          'h1=css:h1',
          'items=css:ul > li',
          'ld=css:script[type="application/ld+json"]',
          'author=xpath://meta[@name="author"]/@content',
          'second=xpath://LI[2]',
          'count=xpath:count(//li)',
          'has=xpath:boolean(//h1)',
          'title=xpath:string(//title)',
          'sku=regex:data-sku="SKU-(\\d+)"',
          'whole=regex:UA-\\d+-\\d+',
          'none=css:.missing',
        ],
      ),
    );
    assert.deepEqual(found.extracted, {
      price: ['€ 12.50', '€ 9'],
      h1: ['Blue kettle'],
      items: ['one', 'two', 'three'],
      ld: ['{"@type":"Product","sku":"K-17"}'],
      author: ['Ann Lee'],
      second: ['two'],
      count: ['3'],
      has: ['true'],
      title: ['Blue kettle'],
      sku: ['1', '22'],
      whole: ['UA-1234-5'],
      none: [],
    });
    assert.equal(found.failed, undefined);
  });

  it('records a rule the page cannot answer, and applies the others', () => {
    const found = applyRules(PAGE, rules([], ['bad=xpath:nosuchfunction(//p)', 'h1=css:h1']));
    assert.deepEqual(found.extracted, { bad: [], h1: ['Blue kettle'] });
    assert.match(found.failed?.['bad'] ?? '', /./);
  });

  it('bounds what a hostile page can make it keep', () => {
    const many = `<html><body>${'<p class="v">value</p>'.repeat(MAX_VALUES + 50)}<p class="long">${'x'.repeat(
      MAX_VALUE_CHARS * 3,
    )}</p></body></html>`;
    const found = applyRules(many, rules(['p=<p'], ['v=css:.v', 'long=css:.long', 'r=regex:value']));
    assert.equal(found.extracted['v']?.length, MAX_VALUES);
    assert.equal(found.extracted['r']?.length, MAX_VALUES);
    assert.equal(found.extracted['long']?.[0]?.length, MAX_VALUE_CHARS);
    assert.equal(found.searches['p'], MAX_VALUES + 51);
    // Counting stops at MAX_COUNT, however many matches a page holds.
    const huge = 'a'.repeat(MAX_COUNT + 10);
    assert.equal(applyRules(huge, rules(['a=a', 'r=regex:a'])).searches['a'], MAX_COUNT);
    // Markup that is not well formed still parses: unclosed elements, stray ends, a script that writes tags.
    const broken = '<div class="v"><p>one<div class="v">two</span><script>document.write("<p class=v>")</script>';
    assert.deepEqual(applyRules(broken, rules([], ['v=xpath:count(//*[@class="v"])'])).extracted['v'], ['2']);
  });

  it('runs one compiled pattern per rule on page after page, each from its start', () => {
    const parsed = rules(['word=regex:kettle'], ['first=regex:(\\w+) kettle']);
    const search = parsed.searches[0]?.match;
    assert.ok(search?.type === 'regex');
    const pattern = search.pattern;
    // A page whose last match leaves the pattern far along does not shorten the next page's count.
    const long = `${'x'.repeat(500)} kettle kettle`;
    assert.equal(applyRules(long, parsed).searches['word'], 2);
    assert.equal(applyRules('kettle', parsed).searches['word'], 1);
    assert.deepEqual(applyRules('a Blue kettle', parsed).extracted['first'], ['Blue']);
    assert.equal(search.pattern, pattern, 'the same compiled pattern');
    // An empty match steps over a whole code point in Unicode mode: an emoji is one position, not two.
    assert.equal(applyRules('a\u{1F600}b', rules(['empty=regex:x*'])).searches['empty'], 4);
  });

  it('parses the rules of a crawl once, and none when the crawl has none', () => {
    const settings = { searches: ['a=b'], extractions: ['c=css:p'] };
    assert.equal(rulesOf(settings), rulesOf({ ...settings }));
    assert.deepEqual(rulesOf({ searches: [], extractions: [] }), { searches: [], extractions: [] });
    assert.deepEqual(rulesOf({} as never), { searches: [], extractions: [] });
  });
});

describe('custom rules on a rendered page', () => {
  const settings = {
    ...DEFAULT_SETTINGS,
    startUrl: 'http://127.0.0.1/',
    searches: ['sold=Sold out'],
    extractions: ['price=css:.price'],
  };
  const SHELL = '<html><head><title>Loading</title></head><body><div id="app"></div><p>Sold out</p></body></html>';
  const LIVE = '<html><head><title>Kettle</title></head><body><p class="price">€ 12</p></body></html>';
  const run = {
    why: 'always',
    startedAt: 0,
    endedAt: 10,
    requests: { requests: [], refused: [], navigations: [] },
    sha256: null,
  };

  /** A page row as its static fetch left it. */
  function fetched(): PageRecord {
    const row = pageFixture('c', 'http://127.0.0.1/p', 1);
    readHtmlInto(row, SHELL, 'utf-8', settings);
    return row;
  }

  it('finds in the rendered DOM, replacing what the HTML as fetched had', () => {
    const row = fetched();
    assert.deepEqual(row.custom, { searches: { sold: 1 }, extracted: { price: [] } });
    const outcome: RenderOutcome = {
      ok: true,
      html: LIVE,
      truncated: false,
      scriptErrors: [],
      navigations: [],
      capped: false,
      requests: 1,
    };
    applyRender(row, outcome, run, settings);
    assert.deepEqual(row.custom, { searches: { sold: 0 }, extracted: { price: ['€ 12'] } });
  });

  it('keeps the findings of the HTML as fetched when the render fails', () => {
    const row = fetched();
    applyRender(row, { ok: false, code: 'timeout', message: 'no document within 10000 ms' }, run, settings);
    assert.equal(row.render?.outcome, 'timeout');
    assert.deepEqual(row.custom, { searches: { sold: 1 }, extracted: { price: [] } });
  });
});

describe('re-running custom rules on a stored crawl', () => {
  /** A store of rows and bodies in memory, recording what a re-run writes. */
  function memoryStore(rows: PageRecord[], bodies: Record<string, string>) {
    const written: { url: string; custom: unknown }[] = [];
    const kept: { searches: readonly string[]; extractions: readonly string[] }[] = [];
    const asked: string[] = [];
    const store: RerunStore = {
      pagesAfter: (_, afterSeq, limit) => Promise.resolve(rows.filter((row) => row.seq > afterSeq).slice(0, limit)),
      getBodies: (crawlId, sha256s) => {
        asked.push(...sha256s);
        return Promise.resolve(
          sha256s.map((sha256) =>
            bodies[sha256] === undefined
              ? undefined
              : { crawlId, sha256, url: '', bytes: new TextEncoder().encode(bodies[sha256]) },
          ),
        );
      },
      putFindings: (_, findings) => {
        written.push(...findings);
        return Promise.resolve();
      },
      putRules: (_, searches, extractions) => {
        kept.push({ searches, extractions });
        return Promise.resolve();
      },
    };
    return { store, written, kept, asked };
  }

  const row = (seq: number, overrides: Partial<PageRecord>): PageRecord =>
    ({ ...pageFixture('c1', `https://a.test/p${seq}`, seq), ...overrides }) as PageRecord;
  const FACTS = { wordCount: 1 } as unknown as PageRecord['facts'];

  it('reads every HTML page from its stored body (the rendered DOM when rendered) and keeps the rules', async () => {
    const rows = [
      row(1, { sha256: 'a', contentType: 'text/html', facts: FACTS }),
      row(2, { sha256: 'img', contentType: 'image/png', facts: null }),
      row(3, {
        sha256: 'static',
        contentType: 'text/html',
        facts: FACTS,
        render: { outcome: 'rendered', sha256: 'dom' } as unknown as PageRecord['render'],
      }),
      row(4, { sha256: 'gone', contentType: 'text/html', facts: FACTS }),
      ...Array.from({ length: RERUN_BATCH + 5 }, (_, i) => row(10 + i, { sha256: 'a', facts: FACTS })),
    ];
    const { store, written, kept, asked } = memoryStore(rows, {
      a: '<p class="v">one</p> old',
      static: '<p class="v">static</p>',
      dom: '<p class="v">rendered</p> old old',
    });
    const progress: number[] = [];
    const result = await rerunRules(
      store,
      { id: 'c1', state: 'finished' },
      { searches: ['old=old'], extractions: ['v=css:.v'] },
      (p) => progress.push(p.rows),
    );
    assert.deepEqual(result, { ok: true, rows: rows.length, pages: RERUN_BATCH + 7, withoutBody: 1 });
    assert.ok(
      !asked.includes('img') && !asked.includes('static'),
      'the image and the static HTML of a rendered page are not read',
    );
    assert.deepEqual(written.find((w) => w.url.endsWith('/p3'))?.custom, {
      searches: { old: 2 },
      extracted: { v: ['rendered'] },
    });
    assert.equal(written.find((w) => w.url.endsWith('/p4'))?.custom, undefined);
    assert.ok(!written.some((w) => w.url.endsWith('/p2')));
    assert.deepEqual(progress, [RERUN_BATCH, rows.length]);
    assert.deepEqual(kept, [{ searches: ['old=old'], extractions: ['v=css:.v'] }]);
  });

  it('clears the findings when the rules are emptied, reading no body', async () => {
    const { store, written, asked } = memoryStore(
      [row(1, { sha256: 'a', facts: FACTS, custom: { searches: { x: 1 }, extracted: {} } })],
      {
        a: 'x',
      },
    );
    const result = await rerunRules(store, { id: 'c1', state: 'stopped' }, { searches: [], extractions: [] });
    assert.ok(result.ok);
    assert.deepEqual(written, [{ url: 'https://a.test/p1', custom: undefined }]);
    assert.deepEqual(asked, []);
  });

  it('refuses a running crawl and bad rules, writing nothing', async () => {
    const { store, written, kept } = memoryStore([row(1, { sha256: 'a', facts: FACTS })], { a: 'x' });
    for (const state of ['running', 'paused'] as const) {
      const result = await rerunRules(store, { id: 'c1', state }, { searches: ['a=b'], extractions: [] });
      assert.ok(!result.ok && 'message' in result && result.message.includes(state));
    }
    const bad = await rerunRules(
      store,
      { id: 'c1', state: 'finished' },
      { searches: ['nope'], extractions: ['x=css:[['] },
    );
    assert.ok(!bad.ok && 'problems' in bad);
    assert.equal(bad.problems.searches.length + bad.problems.extractions.length, 2);
    assert.deepEqual(written, []);
    assert.deepEqual(kept, []);
  });

  it('stops between batches when aborted, keeping the old rules', async () => {
    const rows = Array.from({ length: RERUN_BATCH * 3 }, (_, i) => row(i + 1, { sha256: 'a', facts: FACTS }));
    const { store, written, kept } = memoryStore(rows, { a: 'x' });
    const stop = new AbortController();
    const result = await rerunRules(
      store,
      { id: 'c1', state: 'finished' },
      { searches: ['x=x'], extractions: [] },
      () => stop.abort(),
      stop.signal,
    );
    assert.ok(!result.ok && 'message' in result && /Stopped/.test(result.message));
    assert.equal(written.length, RERUN_BATCH);
    assert.deepEqual(kept, []);
  });
});
