import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import shared from './manifest.json' with { type: 'json' };
import { manifestFor, targetBrowserOf, type SharedManifest } from './src/shells/build/manifest.ts';

// One source tree, one build per browser: `vite build --mode chrome` → dist/chrome/,
// `vite build --mode firefox` → dist/firefox/ (`npm run build` runs both). Only the manifest differs.
export default defineConfig(({ mode }) => {
  const browser = targetBrowserOf(mode);
  return {
    plugins: [
      preact(),
      crx({ manifest: manifestFor(browser, shared as SharedManifest) as unknown as ManifestV3Export, browser }),
    ],
    build: {
      outDir: `dist/${browser}`,
      emptyOutDir: true,
      // Readable stack traces in the worker are worth more than a few KiB.
      sourcemap: true,
      minify: false,
      rollupOptions: {
        // Pages the manifest does not name: the export page, the results browser and the import page open in tabs of their own.
        input: {
          'export-page': 'src/shells/export/index.html',
          'results-page': 'src/shells/results/index.html',
          // Opening a WARC or WACZ as a crawl: a file picker needs a page that stays open (the popup closes).
          'import-page': 'src/shells/import/index.html',
        },
        output: {
          // linkedom (custom extraction's DOM, core/custom-rules/dom-query.ts) in a chunk of its own: its elements
          // assign innerHTML to each other (its own objects, never the page's DOM), which web-ext lint flags;
          // the lint test accepts that warning in this file only.
          manualChunks: (id: string) => (id.includes('/node_modules/linkedom/') ? 'linkedom' : undefined),
        },
      },
    },
  };
});
