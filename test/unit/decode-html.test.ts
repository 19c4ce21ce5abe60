import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeHtml, isHtmlType, looksBinary, parseContentType } from '../../src/core/links/decode-html.ts';

/** Concatenates ASCII strings and raw bytes into one body. */
function bytes(...parts: (string | number[])[]): Uint8Array {
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === 'string') for (const char of part) out.push(char.charCodeAt(0));
    else out.push(...part);
  }
  return Uint8Array.from(out);
}

/** "café – “quoted” €" in windows-1252. */
const CP1252_TEXT = [
  0x63, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x93, 0x71, 0x75, 0x6f, 0x74, 0x65, 0x64, 0x94, 0x20, 0x80,
];
const CP1252_DECODED = 'café – “quoted” €';
/** "日本" in Shift_JIS. */
const SJIS_TEXT = [0x93, 0xfa, 0x96, 0x7b];
/** "café" in UTF-8. */
const UTF8_TEXT = [0x63, 0x61, 0x66, 0xc3, 0xa9];

describe('decodeHtml', () => {
  test('decodes windows-1252 named in the Content-Type header', () => {
    const result = decodeHtml(bytes('<p>', CP1252_TEXT), 'text/html; charset=windows-1252');
    assert.deepEqual(result, { text: `<p>${CP1252_DECODED}`, charset: 'windows-1252' });
  });

  test('decodes windows-1252 named in <meta charset>', () => {
    const result = decodeHtml(bytes('<html><head><meta charset="windows-1252"><p>', CP1252_TEXT), 'text/html');
    assert.equal(result.charset, 'windows-1252');
    assert.ok(result.text.endsWith(CP1252_DECODED));
  });

  test('decodes iso-8859-1 as windows-1252, as browsers do', () => {
    const result = decodeHtml(bytes(CP1252_TEXT), 'text/html; charset=ISO-8859-1');
    assert.deepEqual(result, { text: CP1252_DECODED, charset: 'windows-1252' });
  });

  test('maps every windows-1252 byte from 0x80 to 0x9F, keeping the unassigned ones', () => {
    const { text } = decodeHtml(
      bytes([0x80, 0x81, 0x82, 0x8a, 0x8d, 0x91, 0x92, 0x97, 0x99, 0x9d, 0x9f]),
      'text/html; charset=windows-1252',
    );
    assert.equal(text, '€\u0081‚Š\u008D‘’—™\u009DŸ');
  });

  test('decodes a meta http-equiv Content-Type declaration', () => {
    const html = bytes('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">', CP1252_TEXT);
    const result = decodeHtml(html, null);
    assert.equal(result.charset, 'windows-1252');
    assert.ok(result.text.endsWith(CP1252_DECODED));
  });

  test('reads meta tags in any case and quoting', () => {
    const html = bytes("<META HTTP-EQUIV=content-type CONTENT='text/html;charset=Shift_JIS'>", SJIS_TEXT);
    assert.deepEqual(decodeHtml(html, null), {
      text: "<META HTTP-EQUIV=content-type CONTENT='text/html;charset=Shift_JIS'>日本",
      charset: 'shift_jis',
    });
  });

  test('decodes Shift_JIS named in the header', () => {
    assert.deepEqual(decodeHtml(bytes(SJIS_TEXT), 'text/html; charset="Shift_JIS"'), {
      text: '日本',
      charset: 'shift_jis',
    });
  });

  test('prefers the header charset to the meta one', () => {
    const result = decodeHtml(bytes('<meta charset="windows-1252">', UTF8_TEXT), 'text/html; charset=utf-8');
    assert.deepEqual(result, { text: '<meta charset="windows-1252">café', charset: 'utf-8' });
  });

  test('lets a UTF-8 byte order mark override the header and drops it', () => {
    const result = decodeHtml(bytes([0xef, 0xbb, 0xbf], UTF8_TEXT), 'text/html; charset=windows-1252');
    assert.deepEqual(result, { text: 'café', charset: 'utf-8' });
  });

  test('lets a UTF-16LE byte order mark override the header', () => {
    const result = decodeHtml(bytes([0xff, 0xfe, 0x68, 0x00, 0xe9, 0x00]), 'text/html; charset=windows-1252');
    assert.deepEqual(result, { text: 'hé', charset: 'utf-16le' });
  });

  test('lets a UTF-16BE byte order mark override a meta charset', () => {
    const result = decodeHtml(bytes([0xfe, 0xff, 0x00, 0x68, 0x00, 0xe9]), null);
    assert.deepEqual(result, { text: 'hé', charset: 'utf-16be' });
  });

  test('skips an unknown header label and uses the meta charset', () => {
    const result = decodeHtml(bytes('<meta charset=windows-1252>', CP1252_TEXT), 'text/html; charset=no-such-charset');
    assert.equal(result.charset, 'windows-1252');
  });

  test('falls back to UTF-8 when every label is unknown', () => {
    const result = decodeHtml(bytes('<meta charset="bogus">', UTF8_TEXT), 'text/html; charset=also-bogus');
    assert.deepEqual(result, { text: '<meta charset="bogus">café', charset: 'utf-8' });
  });

  test('falls back to UTF-8 without any declaration', () => {
    assert.deepEqual(decodeHtml(bytes('<p>', UTF8_TEXT), null), { text: '<p>café', charset: 'utf-8' });
  });

  test('replaces invalid UTF-8 with U+FFFD instead of throwing', () => {
    assert.deepEqual(decodeHtml(bytes([0x61, 0xff, 0xc3]), 'text/html; charset=utf-8'), {
      text: 'a\uFFFD\uFFFD',
      charset: 'utf-8',
    });
  });

  test('decodes an empty body', () => {
    assert.deepEqual(decodeHtml(new Uint8Array(0), null), { text: '', charset: 'utf-8' });
  });

  test('ignores a meta charset after the first 1024 bytes', () => {
    const result = decodeHtml(bytes(' '.repeat(1024), '<meta charset="windows-1252">'), null);
    assert.equal(result.charset, 'utf-8');
  });

  test('finds a meta charset that ends within the first 1024 bytes', () => {
    const meta = '<meta charset="windows-1252">';
    const result = decodeHtml(bytes(' '.repeat(1024 - meta.length), meta, CP1252_TEXT), null);
    assert.equal(result.charset, 'windows-1252');
  });

  test('ignores a meta charset inside a comment or a script', () => {
    assert.equal(decodeHtml(bytes('<!-- <meta charset="windows-1252"> -->'), null).charset, 'utf-8');
    assert.equal(decodeHtml(bytes('<script>"<meta charset=windows-1252>"</script>'), null).charset, 'utf-8');
  });

  test('takes the first meta charset', () => {
    assert.equal(
      decodeHtml(bytes('<meta charset="shift_jis"><meta charset="windows-1252">'), null).charset,
      'shift_jis',
    );
  });

  test('ignores a meta content without http-equiv Content-Type', () => {
    assert.equal(decodeHtml(bytes('<meta name="x" content="text/html; charset=windows-1252">'), null).charset, 'utf-8');
  });

  test('reads a meta UTF-16 declaration as UTF-8', () => {
    assert.deepEqual(decodeHtml(bytes('<meta charset="utf-16">', UTF8_TEXT), null), {
      text: '<meta charset="utf-16">café',
      charset: 'utf-8',
    });
  });

  test('survives garbage', () => {
    const garbage = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256);
    assert.equal(typeof decodeHtml(garbage, 'text/html; charset=').text, 'string');
    assert.equal(typeof decodeHtml(bytes('<meta charset="'), ';;;').text, 'string');
  });
});

describe('parseContentType', () => {
  const cases: [value: string | null, mediaType: string | null, charset: string | null][] = [
    ['text/html', 'text/html', null],
    ['text/html; charset=utf-8', 'text/html', 'utf-8'],
    ['Text/HTML; Charset="UTF-8"', 'text/html', 'utf-8'],
    ["text/html;charset='windows-1252'", 'text/html', 'windows-1252'],
    ['  application/xhtml+xml ;  charset = ISO-8859-1  ', 'application/xhtml+xml', 'iso-8859-1'],
    ['text/html; boundary=x; charset=shift_jis; charset=utf-8', 'text/html', 'shift_jis'],
    ['text/html; charset=', 'text/html', null],
    ['text/plain; format=flowed', 'text/plain', null],
    ['html', null, null],
    ['', null, null],
    [null, null, null],
  ];
  for (const [value, mediaType, charset] of cases) {
    test(`reads ${JSON.stringify(value)} as ${mediaType} with charset ${charset}`, () => {
      assert.deepEqual(parseContentType(value), { mediaType, charset });
    });
  }
});

describe('isHtmlType', () => {
  const cases: [string | null, boolean][] = [
    ['text/html', true],
    ['TEXT/HTML; charset=utf-8', true],
    ['application/xhtml+xml', true],
    ['text/plain', false],
    ['application/xml', false],
    ['application/pdf', false],
    ['text/htmlx', false],
    ['', false],
    [null, false],
  ];
  for (const [value, expected] of cases) {
    test(`${expected ? 'accepts' : 'rejects'} ${JSON.stringify(value)}`, () => {
      assert.equal(isHtmlType(value), expected);
    });
  }
});

describe('looksBinary', () => {
  test('reads HTML, text and legacy encodings as text', () => {
    assert.equal(looksBinary(new TextEncoder().encode('<!doctype html><title>x</title>\t\r\n\f<a href=/>')), false);
    assert.equal(looksBinary(bytes(CP1252_TEXT)), false);
    assert.equal(looksBinary(bytes(SJIS_TEXT)), false);
    assert.equal(looksBinary(new Uint8Array()), false);
    assert.equal(looksBinary(bytes('\x1b[0m escape is text')), false);
  });

  test('reads a body with a control byte as binary', () => {
    assert.equal(looksBinary(bytes([0x89], 'PNG\r\n', [0x1a, 0x0a])), true);
    assert.equal(looksBinary(bytes('%PDF-1.7\n', [0x00])), true);
    assert.equal(looksBinary(bytes([0x1f, 0x8b, 0x08])), true, 'gzip');
  });

  test('reads UTF-16 with a byte order mark as text, NUL bytes and all', () => {
    assert.equal(looksBinary(bytes([0xff, 0xfe], '<', [0], 'a', [0])), false);
  });

  test('looks only at the first 1445 bytes', () => {
    assert.equal(looksBinary(bytes('x'.repeat(1445), [0])), false);
    assert.equal(looksBinary(bytes('x'.repeat(1444), [0])), true);
  });
});
