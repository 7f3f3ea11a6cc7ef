// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The rules that flag values typed `any`, for the files where `any` is what parsed JSON and require() give. */
const UNSAFE_ANY_OFF = {
  '@typescript-eslint/no-unsafe-argument': 'off',
  '@typescript-eslint/no-unsafe-assignment': 'off',
  '@typescript-eslint/no-unsafe-call': 'off',
  '@typescript-eslint/no-unsafe-member-access': 'off',
  '@typescript-eslint/no-unsafe-return': 'off',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/out/**',
      'node_modules/**',
      '.cache/**',
      'media/vendor/**',
      'examples/**',
      'test/**/fixtures/**',
      '**/*.d.ts',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked with the tsconfig.json nearest to it (runtime, server, client, test,
        // media); the few build scripts outside every project use the default project.
        projectService: {
          allowDefaultProject: [
            '*.mjs',
            'scripts/*.js',
            'runtime/bin/*.js',
            'server/bin/*.js',
            'test/server/blind/*.js',
          ],
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 32,
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
      // A promise nobody awaits loses its rejection; one passed where a void callback is expected
      // (an event handler, forEach) does too. Await it, or mark it `void` with the reason beside it.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's describe/it return promises that the runner itself awaits and reports on.
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'it', 'test', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      // `async` on a function that awaits nothing is how an adapter gives a synchronous body a
      // promise-returning interface, its throws becoming rejections (the async syscall seams and the
      // fault-injecting test sinks depend on that); dropping it would change behaviour, not style.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The CommonJS glue outside every tsconfig (bins, scripts, the two .mjs configs) has no type
    // annotations: each require() and JSON.parse() is `any`, and node's functions destructured from
    // require() read as unbound methods. The promise rules still check it; these rules would only
    // repeat that the file is untyped.
    files: ['*.mjs', 'scripts/**/*.js', '*/bin/*.js'],
    rules: { ...UNSAFE_ANY_OFF, '@typescript-eslint/unbound-method': 'off' },
  },
  {
    // These tests read writev-lint's JSON, SARIF and rdjson output as parsed JSON (`any`) and walk it
    // in their assertions; the SARIF logs are checked against the OASIS 2.1.0 schema first
    // (test/server/sarif.ts). Declaring a type for every walk would repeat that schema.
    files: [
      'test/server/cli.test.ts',
      'test/server/cliFormats.test.ts',
      'test/server/cliReview.test.ts',
      'test/server/ci.test.ts',
    ],
    rules: UNSAFE_ANY_OFF,
  },
);
