/**
 * Control characters from a crawled site or an archive are written out, never passed on raw: to a
 * terminal they are commands (a title change, a cleared screen, a clipboard write), on a page the
 * bidirectional ones reorder what follows them (issue 27, items 7 and 9).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { visibleControls, visibleDataControls, visibleTextControls } from '../../src/ui/visible-controls.ts';

/** Any C0 control, DEL, C1 control or bidirectional control. */
const RAW_CONTROL = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

describe('visibleControls', () => {
  test('writes ESC and BEL out as \\x1B and \\x07', () => {
    assert.equal(visibleControls('a\u001Bb\u0007c'), 'a\\x1Bb\\x07c');
  });
  test('writes out an OSC 52 clipboard write, a title change and a cleared screen whole', () => {
    assert.equal(visibleControls('\u001B]52;c;ZWNobyBoaQ==\u0007'), '\\x1B]52;c;ZWNobyBoaQ==\\x07');
    assert.equal(visibleControls('\u001B]0;pwned\u001B\\'), '\\x1B]0;pwned\\x1B\\');
    assert.equal(visibleControls('\u001B[2J\u001B[H'), '\\x1B[2J\\x1B[H');
  });
  test('writes out the C1 CSI, NUL, DEL, CR, LF and tab', () => {
    assert.equal(visibleControls('\u009B2J'), '\\x9B2J');
    assert.equal(visibleControls('a\u0000b\u007Fc'), 'a\\x00b\\x7Fc');
    assert.equal(visibleControls('ok\rfake\nline\tx'), 'ok\\x0Dfake\\x0Aline\\x09x');
  });
  test('writes out a right-to-left override, so "\\u202Egnp.exe" cannot read as exe.png', () => {
    assert.equal(visibleControls('\u202Egnp.exe'), '\\u202Egnp.exe');
    assert.equal(
      visibleControls('\u200E\u200F\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069\u061C'),
      '\\u200E\\u200F\\u202A\\u202B\\u202C\\u202D\\u2066\\u2067\\u2068\\u2069\\u061C',
    );
  });
  test('leaves other text alone: letters of any script, emoji, a backslash, a no-break space', () => {
    for (const text of ['https://example.com/a?b=c', 'שלום עולם', 'Grüße — ✓ 🙂', 'C:\\path', 'a\u00A0b', '']) {
      assert.equal(visibleControls(text), text);
    }
  });
  test('leaves no control character in any text', () => {
    let every = '';
    for (let code = 0; code < 0x2100; code += 1) every += String.fromCharCode(code);
    assert.doesNotMatch(visibleControls(every), RAW_CONTROL);
  });
});

describe('visibleDataControls', () => {
  test('writes out NUL, ESC, DEL and C1 but keeps tab, LF and CR (a CSV quotes those) and the bidirectional marks', () => {
    assert.equal(visibleDataControls('a\u0000b\u001Bc\u007Fd\u0085e'), 'a\\x00b\\x1Bc\\x7Fd\\x85e');
    assert.equal(visibleDataControls('a\tb\nc\rd'), 'a\tb\nc\rd');
    assert.equal(visibleDataControls('\u200Fשלום'), '\u200Fשלום');
  });
});

describe('visibleTextControls', () => {
  test('writes out what a page would hide or obey (NUL, ESC, C1, RLO) but keeps tab and line breaks, which a page lays out', () => {
    assert.equal(visibleTextControls('\u202Egnp.exe'), '\\u202Egnp.exe');
    assert.equal(visibleTextControls('a\u0000b\u001Bc\u009Bd'), 'a\\x00b\\x1Bc\\x9Bd');
    assert.equal(visibleTextControls('line\nnext\tcol\r'), 'line\nnext\tcol\r');
  });
});
