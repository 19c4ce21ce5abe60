import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_DEMO_OUT_DIR, outputFormat, parallelNote, parseCliArgs, USAGE } from '../../src/shells/cli/args.ts';
import { EXIT, runCli, type CliIo } from '../../src/shells/cli/run-cli.ts';

function usageMessage(argv: string[]): string {
  const result = parseCliArgs(argv);
  assert.equal(
    result.kind,
    'usage-error',
    `expected a usage error for ${JSON.stringify(argv)}, got ${JSON.stringify(result)}`,
  );
  return result.kind === 'usage-error' ? result.message : '';
}

describe('parseCliArgs', () => {
  test('a start URL alone gives a crawl with no settings but the URL and no outputs', () => {
    assert.deepEqual(parseCliArgs(['https://example.com/']), {
      kind: 'crawl',
      settings: { startUrl: 'https://example.com/' },
      outputs: [],
      browser: 'chrome',
    });
  });

  test('--browser picks the browser the crawl runs in, for a crawl and for the demo', () => {
    const crawl = parseCliArgs(['--browser', 'firefox', 'https://example.com/']);
    assert.equal(crawl.kind === 'crawl' && crawl.browser, 'firefox');
    assert.deepEqual(parseCliArgs(['--demo', '--browser=firefox']), {
      kind: 'demo',
      outDir: DEFAULT_DEMO_OUT_DIR,
      browser: 'firefox',
    });
    assert.equal(
      usageMessage(['--browser', 'safari', 'https://example.com/']),
      "--browser must be chrome or firefox, got 'safari'",
    );
    assert.equal(usageMessage(['https://example.com/', '--browser']), '--browser needs a value');
  });

  test('the start URL is normalized (fragment dropped)', () => {
    const result = parseCliArgs(['https://example.com/a#top']);
    assert.equal(result.kind === 'crawl' && result.settings.startUrl, 'https://example.com/a');
  });

  test('a start URL with a space is refused before any browser starts, with the URL it would have been', () => {
    assert.equal(
      usageMessage(['http://127.0.0.1:8090/ with space']),
      'the start URL has a space in it (a URL writes a space as %20); did you mean http://127.0.0.1:8090/%20with%20space ?',
    );
  });

  test('every option maps to its setting', () => {
    const result = parseCliArgs([
      'https://example.com/docs/',
      '--out',
      'a.jsonl',
      '--max-pages',
      '40',
      '--max-depth',
      '3',
      '--delay',
      '0',
      '--parallel',
      '4',
      '--agent',
      'mybot',
      '--include-subdomains',
      '--prefix',
      '/docs/',
      '--exclude',
      '*?print=*',
      '--head',
      '--timeout',
      '12.5',
      '--follow-nofollow',
    ]);
    assert.deepEqual(result, {
      kind: 'crawl',
      settings: {
        startUrl: 'https://example.com/docs/',
        maxPages: 40,
        maxDepth: 3,
        delayMs: 0,
        requestsPerHost: 4,
        productToken: 'mybot',
        includeSubdomains: true,
        pathPrefix: '/docs/',
        excludePatterns: ['*?print=*'],
        headBeforeGet: true,
        timeoutMs: 12_500,
        followNofollow: true,
      },
      outputs: ['a.jsonl'],
      browser: 'chrome',
    });
  });

  test("--allow-private-addresses lets a crawl of a public site reach the user's network (issue 27, item 8)", () => {
    const result = parseCliArgs(['https://example.com/', '--allow-private-addresses']);
    assert.equal(result.kind === 'crawl' && result.settings.allowPrivateAddresses, true);
    const plain = parseCliArgs(['https://example.com/']);
    assert.equal(plain.kind === 'crawl' && plain.settings.allowPrivateAddresses, undefined, 'off unless given');
    assert.match(USAGE, /--allow-private-addresses/);
    assert.match(
      usageMessage(['--demo', '--allow-private-addresses']),
      /--demo cannot be combined with --allow-private-addresses/,
    );
  });

  test('options may come before the start URL and use --name=value', () => {
    const result = parseCliArgs(['--max-pages=7', 'http://127.0.0.1:8080/']);
    assert.deepEqual(result, {
      kind: 'crawl',
      settings: { startUrl: 'http://127.0.0.1:8080/', maxPages: 7 },
      outputs: [],
      browser: 'chrome',
    });
  });

  test('--out and --exclude can be repeated', () => {
    const result = parseCliArgs([
      'https://example.com/',
      '--out',
      'a.jsonl',
      '--out',
      'out/b.JSONL',
      '--exclude',
      '*.zip',
      '--exclude',
      '*/tag/*',
    ]);
    assert.equal(result.kind, 'crawl');
    if (result.kind !== 'crawl') return;
    assert.deepEqual(result.outputs, ['a.jsonl', 'out/b.JSONL']);
    assert.deepEqual(result.settings.excludePatterns, ['*.zip', '*/tag/*']);
  });

  test('--also can be repeated and gives the extra sites as normalized origins, each once', () => {
    const result = parseCliArgs([
      'http://127.0.0.1:8080/',
      '--also',
      'http://127.0.0.1:8081/',
      '--also',
      'HTTPS://Docs.Example.com:443',
      '--also',
      'http://127.0.0.1:8081',
    ]);
    assert.equal(result.kind, 'crawl');
    if (result.kind !== 'crawl') return;
    assert.deepEqual(result.settings.extraOrigins, ['http://127.0.0.1:8081', 'https://docs.example.com']);
  });

  test('an --also that is not a site is a usage error quoting it, before any browser starts', () => {
    assert.equal(
      usageMessage(['https://example.com/', '--also', 'https://b.example/docs/']),
      '--also: "https://b.example/docs/" has a path, query or fragment; give the site only, e.g. https://b.example',
    );
    assert.equal(
      usageMessage(['https://example.com/', '--also', 'ftp://b.example']),
      '--also: "ftp://b.example" is not an http or https site',
    );
    assert.equal(
      usageMessage(['https://example.com/', '--also', 'localhost:8081']),
      '--also: "localhost:8081" is not an http or https site; did you mean https://localhost:8081?',
    );
    assert.equal(usageMessage(['https://example.com/', '--also']), '--also needs a value');
    assert.match(usageMessage(['--demo', '--also', 'https://b.example']), /--demo cannot be combined with --also/);
  });

  test('a bad --search or --extract is a usage error naming the option once and quoting the spec', () => {
    assert.equal(
      usageMessage(['https://example.com/', '--extract', 'price=css:[[']),
      '--extract: "price=css:[[": not a CSS selector: Expected name, found [',
    );
    assert.equal(
      usageMessage(['https://example.com/', '--search', 'no-equals']),
      '--search: "no-equals": write it as NAME=RULE',
    );
  });

  test('--import takes --search and --extract, checked before a browser starts; no other crawl option', () => {
    const result = parseCliArgs(['--import', 'site.wacz', '--search', 'old=Discontinued', '--extract', 'p=css:.price']);
    assert.deepEqual(result.kind === 'import' && result.rules, {
      searches: ['old=Discontinued'],
      extractions: ['p=css:.price'],
    });
    const plain = parseCliArgs(['--import', 'site.wacz']);
    assert.equal(plain.kind === 'import' && plain.rules, undefined);
    assert.equal(
      usageMessage(['--import', 'site.wacz', '--extract', 'p=css:[[']),
      '--extract: "p=css:[[": not a CSS selector: Expected name, found [',
    );
    assert.match(usageMessage(['--import', 'site.wacz', '--delay', '1']), /--import cannot be combined with --delay/);
  });

  test('a delay of zero seconds is allowed', () => {
    const result = parseCliArgs(['https://example.com/', '--delay', '0']);
    assert.equal(result.kind === 'crawl' && result.settings.delayMs, 0);
  });

  test('a negative delay is a usage error that quotes the value', () => {
    assert.equal(
      usageMessage(['https://example.com/', '--delay', '-1']),
      "--delay must be a number of seconds ≥ 0, got '-1'",
    );
    assert.equal(
      usageMessage(['https://example.com/', '--delay=-1']),
      "--delay must be a number of seconds ≥ 0, got '-1'",
    );
  });

  test('a delay that is not a number is a usage error', () => {
    assert.match(usageMessage(['https://example.com/', '--delay', 'soon']), /^--delay .*'soon'/);
  });

  test('a delay beyond the limit is a usage error shown in seconds', () => {
    assert.match(usageMessage(['https://example.com/', '--delay', '7200']), /^--delay: .*7200 s/);
  });

  test('--parallel takes a whole number of requests at once per host, from 1 to 16', () => {
    for (const [text, value] of [
      ['1', 1],
      ['8', 8],
      ['16', 16],
    ] as const) {
      const result = parseCliArgs(['https://example.com/', '--delay', '0', '--parallel', text]);
      assert.equal(result.kind === 'crawl' && result.settings.requestsPerHost, value, text);
    }
    assert.deepEqual(parseCliArgs(['--parallel=2', 'http://127.0.0.1:8080/']), {
      kind: 'crawl',
      settings: { startUrl: 'http://127.0.0.1:8080/', requestsPerHost: 2 },
      outputs: [],
      browser: 'chrome',
    });
    // Left to the default (1) when not given.
    const plain = parseCliArgs(['https://example.com/']);
    assert.equal(plain.kind === 'crawl' && 'requestsPerHost' in plain.settings, false);
  });

  test('a bad --parallel is a usage error naming the option and quoting the value', () => {
    assert.equal(
      usageMessage(['https://example.com/', '--parallel', '0']),
      '--parallel: requests at once per host must be from 1 to 16, not 0',
    );
    assert.equal(
      usageMessage(['https://example.com/', '--parallel', '17']),
      '--parallel: requests at once per host must be from 1 to 16, not 17',
    );
    assert.equal(
      usageMessage(['https://example.com/', '--parallel', 'x']),
      "--parallel must be a whole number, got 'x'",
    );
    assert.equal(
      usageMessage(['https://example.com/', '--parallel', '2.5']),
      "--parallel must be a whole number, got '2.5'",
    );
    assert.equal(
      usageMessage(['https://example.com/', '--parallel', '-2']),
      "--parallel must be a whole number, got '-2'",
    );
    assert.equal(usageMessage(['https://example.com/', '--parallel']), '--parallel needs a value');
    assert.match(usageMessage(['--demo', '--parallel', '4']), /--demo cannot be combined with --parallel/);
  });

  test('a bad --parallel exits 2 with its one-line reason, before anything is built or launched', async () => {
    for (const [value, reason] of [
      ['0', '--parallel: requests at once per host must be from 1 to 16, not 0'],
      ['17', '--parallel: requests at once per host must be from 1 to 16, not 17'],
      ['x', "--parallel must be a whole number, got 'x'"],
    ] as const) {
      const err: string[] = [];
      const out: string[] = [];
      const io: CliIo = {
        stdout: (text) => out.push(text),
        stderr: (text) => err.push(text),
        isStderrTTY: false,
        // CHROME_PATH points nowhere and the root has no sources: reaching either would be another error.
        env: { CHROME_PATH: '/nonexistent/chrome' },
        root: '/nonexistent-tabcrawl-root',
        cwd: '/tmp',
        signal: new AbortController().signal,
      };
      assert.equal(await runCli(['https://example.com/', '--delay', '0', '--parallel', value], io), EXIT.usage, value);
      assert.equal(EXIT.usage, 2);
      assert.deepEqual(err, [`tabcrawl: ${reason}\n`, 'run with --help for the options\n'], value);
      assert.deepEqual(out, []);
    }
  });

  test('a timeout under one second is a usage error', () => {
    assert.match(usageMessage(['https://example.com/', '--timeout', '0.5']), /^--timeout: /);
  });

  test('--max-pages and --max-depth take whole numbers only', () => {
    assert.equal(
      usageMessage(['https://example.com/', '--max-pages', '1.5']),
      "--max-pages must be a whole number, got '1.5'",
    );
    assert.equal(
      usageMessage(['https://example.com/', '--max-depth', 'ten']),
      "--max-depth must be a whole number, got 'ten'",
    );
    assert.equal(
      usageMessage(['https://example.com/', '--max-pages', '-3']),
      "--max-pages must be a whole number, got '-3'",
    );
  });

  test('settings validation errors are named by their option', () => {
    assert.match(usageMessage(['https://example.com/', '--max-pages', '0']), /^--max-pages: /);
    assert.match(usageMessage(['https://example.com/', '--max-depth', '5000']), /^--max-depth: /);
    assert.match(usageMessage(['https://example.com/', '--agent', 'my bot/1.0']), /^--agent: /);
    assert.match(usageMessage(['https://example.com/', '--prefix', 'docs']), /^--prefix: /);
  });

  test('a non-http start URL is a usage error', () => {
    assert.match(usageMessage(['ftp://example.com/']), /only http and https/);
    assert.match(usageMessage(['example.com']), /not a full URL; did you mean https:\/\/example\.com\?/);
    assert.match(usageMessage(['http://exa mple.com/']), /not a valid URL/);
  });

  test('the Chrome Web Store and file URLs are usage errors, before any browser starts', () => {
    assert.match(
      usageMessage(['https://chromewebstore.google.com/']),
      /Chrome does not let extensions read the Chrome Web Store/,
    );
    assert.match(usageMessage(['https://chrome.google.com/webstore/detail/x']), /Chrome Web Store/);
    assert.match(usageMessage(['file:///etc/passwd']), /only http and https/);
    assert.match(usageMessage(['about:blank']), /only http and https/);
  });

  test('a start URL with a password is a usage error', () => {
    assert.match(usageMessage(['https://me:secret@example.com/']), /must not contain a user name or password/);
  });

  test('an exclude pattern or path prefix that rules out the start URL is a usage error naming its option', () => {
    assert.equal(
      usageMessage(['https://example.com/', '--exclude', '*example.com*']),
      '--exclude: the exclude pattern "*example.com*" matches the start URL itself',
    );
    assert.equal(
      usageMessage(['https://example.com/', '--prefix', '/docs/']),
      '--prefix: the start URL is not under the path prefix "/docs/"',
    );
  });

  test('an unknown option is a usage error naming it', () => {
    assert.equal(usageMessage(['https://example.com/', '--fast']), "unknown option '--fast'");
    assert.equal(usageMessage(['https://example.com/', '-x']), "unknown option '-x'");
  });

  test('an option missing its value is a usage error', () => {
    assert.equal(usageMessage(['https://example.com/', '--out']), '--out needs a value');
  });

  test('a missing start URL is a usage error', () => {
    assert.match(usageMessage([]), /missing the start URL/);
    assert.match(usageMessage(['--max-pages', '3']), /missing the start URL/);
  });

  test('two start URLs are a usage error', () => {
    assert.match(usageMessage(['https://a.example/', 'https://b.example/']), /expected one start URL, got 2/);
  });

  test('an --out file with an unsupported extension is a usage error naming the supported ones', () => {
    assert.equal(
      usageMessage(['https://example.com/', '--out', 'crawl.pdf']),
      "--out 'crawl.pdf': unsupported format; supported extensions: .wacz, .warc.gz, .warc, .csv, .jsonl, .issues.csv, .not-crawled.csv, .links.csv",
    );
    assert.match(usageMessage(['https://example.com/', '--out', 'crawl']), /supported extensions: \.wacz/);
  });

  test('the same --out file twice is a usage error', () => {
    assert.match(usageMessage(['https://example.com/', '--out', 'a.jsonl', '--out', 'a.jsonl']), /given twice/);
  });

  test('--demo writes into tabcrawl-output by default', () => {
    assert.deepEqual(parseCliArgs(['--demo']), { kind: 'demo', outDir: DEFAULT_DEMO_OUT_DIR, browser: 'chrome' });
    assert.equal(DEFAULT_DEMO_OUT_DIR, 'tabcrawl-output');
  });

  test('--demo takes --out-dir', () => {
    assert.deepEqual(parseCliArgs(['--demo', '--out-dir', '/tmp/x']), {
      kind: 'demo',
      outDir: '/tmp/x',
      browser: 'chrome',
    });
  });

  test('--demo takes no start URL and no crawl options', () => {
    assert.match(usageMessage(['--demo', 'https://example.com/']), /takes no start URL/);
    assert.match(usageMessage(['--demo', '--max-pages', '3']), /--demo cannot be combined with --max-pages/);
  });

  test('--verbose (the build shows its own output) goes with a crawl, --demo and --import, and is absent otherwise', () => {
    assert.deepEqual(parseCliArgs(['https://example.com/', '--verbose']), {
      kind: 'crawl',
      settings: { startUrl: 'https://example.com/' },
      outputs: [],
      browser: 'chrome',
      verbose: true,
    });
    assert.deepEqual(parseCliArgs(['--demo', '--verbose']), {
      kind: 'demo',
      outDir: DEFAULT_DEMO_OUT_DIR,
      browser: 'chrome',
      verbose: true,
    });
    assert.deepEqual(parseCliArgs(['--verbose', '--import', 'a.warc']), {
      kind: 'import',
      file: 'a.warc',
      outputs: [],
      browser: 'chrome',
      verbose: true,
    });
    assert.equal('verbose' in parseCliArgs(['https://example.com/']), false);
    assert.equal(usageMessage(['https://example.com/', '--verbose=yes']), '--verbose takes no value');
  });

  test('--out-dir without --demo is a usage error', () => {
    assert.match(usageMessage(['https://example.com/', '--out-dir', 'x']), /only applies to --demo/);
  });

  test('--help and -h win over everything else, even errors', () => {
    assert.deepEqual(parseCliArgs(['--help']), { kind: 'help' });
    assert.deepEqual(parseCliArgs(['-h']), { kind: 'help' });
    assert.deepEqual(parseCliArgs(['https://example.com/', '--bogus', '--help']), { kind: 'help' });
  });

  test('usage errors are one line', () => {
    for (const argv of [['--fast'], ['https://example.com/', '--delay', '--head'], ['mailto:a@b.c'], []]) {
      assert.doesNotMatch(usageMessage(argv), /\n/);
    }
  });

  test('the usage text lists every option', () => {
    for (const option of [
      '--out',
      '--max-pages',
      '--max-depth',
      '--delay',
      '--parallel',
      '--agent',
      '--include-subdomains',
      '--prefix',
      '--exclude',
      '--also',
      '--head',
      '--timeout',
      '--follow-nofollow',
      '--demo',
      '--out-dir',
      '--verbose',
      '--help',
    ]) {
      assert.ok(USAGE.includes(option), `${option} missing from the usage text`);
    }
    assert.match(USAGE, /--max-pages N {11}most pages: [^]*?\(default: 500\)\n/);
    assert.match(
      USAGE,
      /--parallel N .*1 to 16; more than 1 only with --delay 0,\n.*no Crawl-delay.*\n.*\(default: 1\)/,
    );
  });
});

describe('outputFormat', () => {
  test('reads the format from the extension, in any case', () => {
    assert.equal(outputFormat('a/b.jsonl'), 'jsonl');
    assert.equal(outputFormat('B.JSONL'), 'jsonl');
    assert.equal(outputFormat('b.json'), null);
    assert.equal(outputFormat('site.WARC.GZ'), 'warc.gz');
    assert.equal(outputFormat('site.warc'), 'warc');
    assert.equal(outputFormat('site.wacz'), 'wacz');
    assert.equal(outputFormat('site.csv'), 'csv');
    assert.equal(outputFormat('site.gz'), null);
    assert.equal(outputFormat('jsonl'), null);
  });
});

describe('the --parallel note', () => {
  test('says when --parallel does nothing because the crawl keeps a gap', () => {
    assert.match(parallelNote({ requestsPerHost: 8 }) ?? '', /--parallel 8 applies only with --delay 0/);
    assert.match(parallelNote({ requestsPerHost: 4, delayMs: 0, jitterMs: 100 }) ?? '', /one request at a time/);
  });
  test('says nothing when it applies or was not asked for', () => {
    assert.equal(parallelNote({ requestsPerHost: 8, delayMs: 0 }), null);
    assert.equal(parallelNote({ delayMs: 500 }), null);
    assert.equal(parallelNote({ requestsPerHost: 1, delayMs: 500 }), null);
  });
});

describe('the archive and link-check options', () => {
  const settingsOf = (argv: string[]): Record<string, unknown> => {
    const result = parseCliArgs(['https://example.com/', ...argv]);
    assert.equal(result.kind, 'crawl', JSON.stringify(result));
    return result.kind === 'crawl' ? (result.settings as Record<string, unknown>) : {};
  };
  const problemOf = (argv: string[]): string => {
    const result = parseCliArgs(['https://example.com/', ...argv]);
    assert.equal(result.kind, 'usage-error');
    return result.kind === 'usage-error' ? result.message : '';
  };

  test('leaves resources and files to their defaults (on) unless told', () => {
    const settings = settingsOf([]);
    assert.equal(settings['archiveResources'], undefined);
    assert.equal(settings['downloadFiles'], undefined);
  });

  test('turns resources off with --no-resources or --no-page-requisites, on with --resources, -p or --page-requisites', () => {
    assert.equal(settingsOf(['--no-resources'])['archiveResources'], false);
    assert.equal(settingsOf(['--no-page-requisites'])['archiveResources'], false);
    assert.equal(settingsOf(['-p'])['archiveResources'], true);
    assert.equal(settingsOf(['--resources'])['archiveResources'], true);
    assert.equal(settingsOf(['--page-requisites'])['archiveResources'], true);
    assert.match(problemOf(['-p', '--no-resources']), /contradict/);
  });

  test('turns file downloads off with --no-files and on with --files', () => {
    assert.equal(settingsOf(['--no-files'])['downloadFiles'], false);
    assert.equal(settingsOf(['--files'])['downloadFiles'], true);
    assert.match(problemOf(['--files', '--no-files']), /contradict/);
  });

  test('reads --max-file-size as bytes or with K, M or G, and refuses anything else', () => {
    assert.equal(settingsOf(['--max-file-size', '50M'])['maxFileBytes'], 50 * 1024 * 1024);
    assert.equal(settingsOf(['--max-file-size', '1.5k'])['maxFileBytes'], 1536);
    assert.equal(settingsOf(['--max-file-size', '1G'])['maxFileBytes'], 1024 ** 3);
    assert.equal(settingsOf(['--max-file-size', '4096'])['maxFileBytes'], 4096);
    assert.match(problemOf(['--max-file-size', '12X']), /--max-file-size takes a size/);
    assert.match(problemOf(['--max-file-size', '-1M']), /--max-file-size/);
    assert.match(problemOf(['--max-file-size', '100']), /--max-file-size: .*from 1024 bytes/);
  });

  test('reads --max-resources as a whole number within its bounds', () => {
    assert.equal(settingsOf(['--max-resources', '0'])['maxResources'], 0);
    assert.equal(settingsOf(['--max-resources', '250'])['maxResources'], 250);
    assert.match(problemOf(['--max-resources', 'many']), /--max-resources/);
  });

  test('documents every archive option in --help', () => {
    for (const option of ['--no-resources', '--no-files', '--max-file-size', '--max-resources', '-p'])
      assert.ok(USAGE.includes(option), option);
  });

  test('checks links to other sites by default, off with --no-check-external, on with --check-external', () => {
    assert.equal(settingsOf([])['checkExternal'], undefined, 'the default applies');
    assert.equal(settingsOf(['--no-check-external'])['checkExternal'], false);
    assert.equal(settingsOf(['--check-external'])['checkExternal'], true);
    assert.match(problemOf(['--check-external', '--no-check-external']), /contradict/);
  });

  test('reads --max-external and --max-external-per-host as whole numbers within their bounds', () => {
    assert.equal(settingsOf(['--max-external', '0'])['maxExternal'], 0);
    assert.equal(settingsOf(['--max-external-per-host', '5'])['maxExternalPerHost'], 5);
    assert.match(problemOf(['--max-external', 'lots']), /--max-external/);
    assert.match(problemOf(['--max-external-per-host', '0']), /--max-external-per-host/);
  });

  test('documents the options of links to other sites in --help', () => {
    for (const option of ['--no-check-external', '--check-external', '--max-external N', '--max-external-per-host N'])
      assert.ok(USAGE.includes(option), option);
  });
});

describe('--browsertrix-config', () => {
  test('names the file the crawl is also written to as a Browsertrix Crawler config, beside any --out', () => {
    assert.deepEqual(
      parseCliArgs(['https://example.com/', '--browsertrix-config', 'crawl-config.yaml', '--out', 'site.wacz']),
      {
        kind: 'crawl',
        settings: { startUrl: 'https://example.com/' },
        outputs: ['site.wacz'],
        browser: 'chrome',
        browsertrixConfig: 'crawl-config.yaml',
      },
    );
    const yml = parseCliArgs(['https://example.com/', '--browsertrix-config=out/Config.YML']);
    assert.equal(yml.kind === 'crawl' && yml.browsertrixConfig, 'out/Config.YML');
    const none = parseCliArgs(['https://example.com/']);
    assert.equal(none.kind === 'crawl' && 'browsertrixConfig' in none, false);
  });

  test('takes a .yaml or .yml file name, one value, and not with --demo', () => {
    assert.equal(
      usageMessage(['https://example.com/', '--browsertrix-config', 'config.json']),
      "--browsertrix-config 'config.json': the file name must end in .yaml or .yml",
    );
    assert.equal(usageMessage(['https://example.com/', '--browsertrix-config']), '--browsertrix-config needs a value');
    assert.match(
      usageMessage(['--demo', '--browsertrix-config', 'c.yaml']),
      /--demo cannot be combined with --browsertrix-config/,
    );
    assert.match(USAGE, /--browsertrix-config FILE\.yaml/);
  });
});

describe('--import', () => {
  test('opens an archive instead of crawling: no start URL, any --out, either browser', () => {
    assert.deepEqual(parseCliArgs(['--import', 'site.wacz', '--out', 'rows.jsonl', '--out', 'table.csv']), {
      kind: 'import',
      file: 'site.wacz',
      outputs: ['rows.jsonl', 'table.csv'],
      browser: 'chrome',
    });
    assert.deepEqual(parseCliArgs(['--import=old/crawl.WARC.GZ', '--browser', 'firefox']), {
      kind: 'import',
      file: 'old/crawl.WARC.GZ',
      outputs: [],
      browser: 'firefox',
    });
    assert.deepEqual(parseCliArgs(['--import', 'a.warc', '--out', 'again.wacz']), {
      kind: 'import',
      file: 'a.warc',
      outputs: ['again.wacz'],
      browser: 'chrome',
    });
  });

  test('says what is wrong: no file, a start URL too, not an archive, with --demo or crawl options, a bad --out', () => {
    assert.equal(usageMessage(['--import']), '--import needs a value');
    assert.equal(usageMessage(['--import', '']), '--import needs a file: a .wacz, .warc or .warc.gz');
    assert.equal(
      usageMessage(['--import', 'a.wacz', 'https://example.com/']),
      "--import reads a file instead of crawling and takes no start URL, got 'https://example.com/'",
    );
    assert.equal(
      usageMessage(['--import', 'a.zip']),
      "--import 'a.zip': not an archive Tabcrawl reads; give a .wacz, .warc, .warc.gz file",
    );
    assert.equal(
      usageMessage(['--import', 'a.gz']),
      "--import 'a.gz': not an archive Tabcrawl reads; give a .wacz, .warc, .warc.gz file",
    );
    assert.equal(
      usageMessage(['--import', '.wacz']),
      "--import '.wacz': not an archive Tabcrawl reads; give a .wacz, .warc, .warc.gz file",
    );
    assert.equal(usageMessage(['--demo', '--import', 'a.wacz']), '--demo cannot be combined with --import');
    assert.match(
      usageMessage(['--import', 'a.wacz', '--max-pages', '5']),
      /^--import cannot be combined with --max-pages/,
    );
    assert.match(
      usageMessage(['--import', 'a.wacz', '--browsertrix-config', 'c.yaml']),
      /^--import cannot be combined with --browsertrix-config/,
    );
    assert.match(
      usageMessage(['--import', 'a.wacz', '--out', 'x.txt']),
      /^--out 'x\.txt': unsupported format; supported extensions: /,
    );
    assert.equal(
      usageMessage(['--import', 'a.wacz', '--out', 'x.csv', '--out', 'x.csv']),
      "--out 'x.csv' is given twice",
    );
    assert.equal(
      usageMessage(['--import', 'a.wacz', '--out-dir', 'd']),
      '--out-dir only applies to --demo; use --out FILE',
    );
  });

  test('is documented in --help', () => {
    assert.match(USAGE, /--import FILE/);
    assert.match(USAGE, /tabcrawl --import FILE/);
  });
});
