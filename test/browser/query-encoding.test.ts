/**
 * `encodeQueryFor` against Chromium itself: a link in a document of each
 * legacy encoding, read back from the element (`a.href`), is how a visitor's
 * browser requests it. The document is ASCII with numeric character
 * references, served from a Blob with the encoding in its type.
 */
import { expect } from 'chai';
import { encodeQueryFor } from '../../src/core/links/query-encoding.ts';

/** `href` as Chromium resolves it in a document of `encoding` at `base`. */
async function browserHref(href: string, encoding: string): Promise<string> {
  // Every non-ASCII character as a reference: the bytes are the same in every encoding.
  const ascii = href.replace(/[^\u0000-\u007F]/gu, (char) => `&#${char.codePointAt(0) ?? 0};`);
  const html = `<!doctype html><base href="http://site.test/dir/"><a href="${ascii}">x</a>`;
  const url = URL.createObjectURL(new Blob([html], { type: `text/html; charset=${encoding}` }));
  const frame = document.createElement('iframe');
  try {
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    frame.src = url;
    document.body.append(frame);
    await loaded;
    const doc = frame.contentDocument;
    expect(doc?.characterSet.toLowerCase()).to.equal(encoding);
    return doc?.querySelector('a')?.href ?? '';
  } finally {
    frame.remove();
    URL.revokeObjectURL(url);
  }
}

const CASES: [encoding: string, href: string][] = [
  ['windows-1252', 'search?q=café&e=€&x=ÿ#frag'],
  ['windows-1252', 'search?q=日本'],
  ['iso-8859-2', 'search?q=łódź'],
  ['windows-1251', 'search?q=Привет мир'],
  ['koi8-r', 'search?q=Привет'],
  ['shift_jis', 'search?q=日本語&k=ｶﾀｶﾅ'],
  ['euc-jp', 'search?q=日本語'],
  ['euc-kr', 'search?q=한국어'],
  ['big5', 'search?q=中文字'],
  ['gbk', 'search?q=中文字'],
  ['gb18030', 'search?q=中文'],
  ['windows-1252', '/café/page?q=é'],
];

describe('encodeQueryFor: the query as Chromium encodes it on a page in a legacy encoding', () => {
  for (const [encoding, href] of CASES) {
    it(`${encoding}: ${href}`, async () => {
      const ours = new URL(encodeQueryFor(href, encoding), 'http://site.test/dir/').href;
      expect(ours).to.equal(await browserHref(href, encoding));
    });
  }

  it('leaves a UTF-8 page as the URL parser does', async () => {
    const href = 'search?q=café';
    expect(new URL(encodeQueryFor(href, 'utf-8'), 'http://site.test/dir/').href).to.equal(
      await browserHref(href, 'utf-8'),
    );
  });
});
