// ESLint for the TypeScript sources (npm run lint). Only rules that find defects are on: the formatter
// (Prettier, npm run format:check) owns layout, and the compiler (npm run typecheck) owns types.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

// The layers below the HTTP API: none of them may import from src/http. What both need lives in src/core;
// src/wire (the JSON shapes, which webhooks in src/events send too) is below it as well.
const belowHttp = [
  'core',
  'wire',
  'domain',
  'telemetry',
  'events',
  'cli',
  'sim',
  'auth',
  'storage',
  'limits',
  'ops',
  'config',
  'demo',
];

// One owner per table (docs/architecture.md): `users` and `vehicles` are queried only in their areas,
// which export what others need (refs, summaries, query fragments to join or filter on). The check sees
// a table named by a string literal as the first argument of a query builder's method
// (`selectFrom('users')`, `leftJoin('vehicles as v', …)` …).
const usersAndVehiclesQuery = {
  selector:
    'CallExpression[callee.property.name=/^(selectFrom|updateTable|insertInto|deleteFrom|replaceInto|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin)$/][arguments.0.value=/^(users|vehicles)(\\s+as\\s+\\w+)?$/]',
  message:
    'users and vehicles belong to their areas: use or add an exported function in src/domain/users or src/domain/vehicles.',
};

export default defineConfig(
  { ignores: ['dist/', 'dist.*/', 'node_modules/', 'data/', '.tmp*/', 'src/http/console/assets/'] },
  {
    files: ['{src,test,bench,scripts}/**/*.ts', 'scripts/*.mjs', 'bin/*.js'],
    languageOptions: {
      parser: tseslint.parser,
      // Type information comes from tsconfig.json, which covers the .ts files of src, test, bench and
      // scripts; the few plain JavaScript scripts get the compiler's default project.
      parserOptions: {
        projectService: { allowDefaultProject: ['scripts/*.mjs', 'bin/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin, 'import-x': importX },
    settings: {
      // Imports name the compiled .js file (NodeNext); the source beside it is the .ts file.
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
      // no-cycle follows only files it can parse: the .ts sources through the TypeScript parser.
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's test() and describe() return promises that the runner itself awaits.
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      // A switch over a union must name every member or end in `default`, a deliberate catch-all (counting
      // one as not exhaustive reports switches on `string | null` that end in a default value).
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: belowHttp.map((dir) => `./src/${dir}`),
              from: './src/http',
              message: 'A layer below the HTTP API must not depend on it; move what both need to src/core.',
            },
          ],
        },
      ],
      // Import cycles that exist at run time. `import type` (and imports whose names are all types) are
      // erased by the compiler, so they are not followed.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // `users` and `vehicles` outside their areas (usersAndVehiclesQuery above). Migrations and the storage
    // layer sit in src/storage.
    files: ['src/**/*.ts'],
    ignores: ['src/domain/users/**', 'src/domain/vehicles/**', 'src/storage/**'],
    rules: {
      'no-restricted-syntax': ['error', usersAndVehiclesQuery],
    },
  },
  {
    // Queries are built only by repositories (the areas' modules in src/domain, src/auth, src/events), the
    // telemetry store and queries (src/telemetry) and src/storage: never by the HTTP adapters, the CLI, the
    // simulator, the demo seeding (the console's views and data loaders are in src/http) or the wire mappers, which call the owner's exported
    // functions. A later block's no-restricted-syntax replaces an earlier one's for the files both match,
    // so this list repeats the users/vehicles check.
    files: ['src/{http,cli,sim,demo,wire}/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        usersAndVehiclesQuery,
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message:
            "Queries belong to the table's owner: use or add an exported function in its area (src/domain, src/auth, src/events), in src/telemetry or in src/storage.",
        },
      ],
    },
  },
  {
    // The wire mappers are pure: they take loaded rows and never the database. What a page embeds is
    // loaded by src/wire/pages.ts through the one batch loader of summaries (src/wire/embeds.ts).
    files: ['src/wire/**/*.ts'],
    ignores: ['src/wire/pages.ts', 'src/wire/embeds.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/storage/db.js'],
              message: 'A wire mapper takes loaded data; load it in src/wire/pages.ts.',
            },
          ],
        },
      ],
    },
  },
);
