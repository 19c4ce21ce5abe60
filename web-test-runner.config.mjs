// @web/test-runner: browser tests (components, real IndexedDB) in headless Chromium.
// See docs/testing.md, "Platform facts", for why dexie is remapped and CommonJS is pre-bundled.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { build } from 'esbuild';
import quietFlags from './src/shells/cli/chromium-flags.json' with { type: 'json' };

const rootDir = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Bare imports served from another file than the one their package's `exports` picks. */
const ALIASES = {
  // Its `import` entry is a UMD file as served here (no default export).
  dexie: 'node_modules/dexie/dist/dexie.mjs',
};

/** CommonJS packages the browser cannot load as is: bundled to one ES module each (its default export) on first request. */
const COMMONJS_PACKAGES = ['robots-parser', 'xpath', 'safe-regex2'];

/** ES module packages that import CommonJS (linkedom's canvas shim, css-select's boolbase): bundled with their named exports. */
const ESM_PACKAGES = ['linkedom', 'css-select'];

const PREBUNDLED = [...COMMONJS_PACKAGES, ...ESM_PACKAGES];

const PREBUNDLE_PREFIX = '/__prebundled__/';

/** Maps {@link ALIASES} and serves {@link PREBUNDLED} as ES modules bundled by esbuild. */
function packageShimPlugin() {
  /** @type {Map<string, Promise<string>>} */
  const bundles = new Map();
  const bundle = (name) => {
    let pending = bundles.get(name);
    if (pending === undefined) {
      const entry = ESM_PACKAGES.includes(name)
        ? { stdin: { contents: `export * from '${name}';`, resolveDir: rootDir, loader: 'js' } }
        : { entryPoints: [require.resolve(name, { paths: [rootDir] })] };
      pending = build({
        ...entry,
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        write: false,
        logLevel: 'silent',
      }).then((result) => {
        const [output] = result.outputFiles;
        if (output === undefined) throw new Error(`esbuild produced nothing for ${name}`);
        return output.text;
      });
      pending.catch(() => bundles.delete(name));
      bundles.set(name, pending);
    }
    return pending;
  };
  return {
    name: 'tabcrawl-package-shims',
    resolveImport({ source }) {
      if (Object.hasOwn(ALIASES, source)) return `/${ALIASES[source]}`;
      if (PREBUNDLED.includes(source)) return `${PREBUNDLE_PREFIX}${encodeURIComponent(source)}.js`;
      return undefined;
    },
    async serve(context) {
      if (!context.path.startsWith(PREBUNDLE_PREFIX)) return undefined;
      const name = decodeURIComponent(context.path.slice(PREBUNDLE_PREFIX.length, -'.js'.length));
      if (!PREBUNDLED.includes(name)) return undefined;
      return { body: await bundle(name), type: 'js' };
    },
  };
}

export default {
  rootDir,
  files: ['test/browser/**/*.test.{ts,tsx}'],
  nodeResolve: true,
  watch: false,
  concurrency: 1,
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
        args: ['--no-sandbox', '--headless=new', ...quietFlags],
      },
    }),
  ],
  plugins: [
    packageShimPlugin(),
    esbuildPlugin({ ts: true, tsx: true, jsx: true, tsconfig: path.join(rootDir, 'tsconfig.json') }),
  ],
  testFramework: {
    config: { timeout: 5000 },
  },
};
