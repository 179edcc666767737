// ESLint runs only the type-aware promise rules, which need TypeScript's checker; formatting and every other lint
// rule are Biome's (biome.json). Why two tools: docs/decisions.md, "Formatter and linters".
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'web/**',
      '**/dist/**',
      'data/**',
      'coverage/**',
      'bin/**',
      '**/*.cjs',
      'eslint.config.js',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
);
