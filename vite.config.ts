import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import manifest from './manifest.json' with { type: 'json' };

export default defineConfig({
  plugins: [preact(), crx({ manifest })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Readable stack traces in the worker are worth more than a few KiB.
    sourcemap: true,
    minify: false,
    rollupOptions: {
      // Pages the manifest does not name: the export page and the results browser open in tabs of their own.
      input: {
        'export-page': 'src/shells/export/index.html',
        'results-page': 'src/shells/results/index.html',
      },
    },
  },
});
