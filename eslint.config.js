// ESLint: the checks `npm run lint` runs (and `npm test`, through it). Formatting is Prettier's (`.prettierrc.json`),
// so eslint-config-prettier turns off every rule about layout. The import rules are test/unit/layering.test.ts's.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'packages/', '.tmp/', 'tabcrawl-output/', 'node_modules/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.webextensions } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      // Control characters in patterns are the point here: crawled text is checked for them and written out
      // (ui/visible-controls.ts, the WARC reader, the Browsertrix config's quoting).
      'no-control-regex': 'off',
      // Unused names are an error unless they say on purpose that they are unused.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  prettier,
);
