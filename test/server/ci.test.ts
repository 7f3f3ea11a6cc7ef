// The drop-in CI files, run as their hosts would run them: action.yml's steps in order (each `run`
// script with bash -eo pipefail, its `env` resolved from the inputs and the event, outputs through
// $GITHUB_OUTPUT) on a fixture repository for a pull request and a push; and each hook of
// .pre-commit-hooks.yaml as pre-commit calls it (entry, then the staged files its types select).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, extname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { gitEnv } from '../runtime/helpers/gitEnv';
import { cFunction, git } from './cliHelpers';
import { REPO } from './helpers';
import { sarifProblems } from './sarif';

const tmp = mkdtempSync(join(tmpdir(), 'writev-ci-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const VERSION = (
  JSON.parse(readFileSync(join(REPO, 'server', 'package.json'), 'utf8')) as { version: string }
).version;
const HEADER = '#include "git-compat-util.h"\n\n';

interface Step {
  name: string;
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  runs: { using: string; steps: Step[] };
  inputs: Record<string, { default?: string }>;
}

/** The fixture: a base commit with one finding, then a pull-request commit that adds another. */
let fixture = '';
let baseSha = '';
before(() => {
  fixture = join(tmp, 'project');
  mkdirSync(join(fixture, 'src'), { recursive: true });
  git(fixture, 'init', '-q', '-b', 'main');
  writeFileSync(join(fixture, 'src', 'old.c'), HEADER + cFunction('old'));
  git(fixture, 'add', '.');
  git(fixture, 'commit', '-q', '-m', 'base');
  baseSha = git(fixture, 'rev-parse', 'HEAD').trim();
  writeFileSync(join(fixture, 'src', 'new.c'), HEADER + cFunction('added'));
  git(fixture, 'add', '.');
  git(fixture, 'commit', '-q', '-m', 'pull request');
});

/** Evaluates `${{ a.b.c }}` against `context`; any other expression fails the test. */
function expand(text: string, context: Record<string, unknown>): string {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, path: string) => {
    let value: unknown = context;
    for (const key of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
    if (value === undefined && !path.startsWith('github.event.'))
      assert.fail(`unresolved ${path} in "${text}"`);
    return value === undefined ? '' : String(value);
  });
}

/** Runs action.yml's steps in `fixture` for `event`; returns the lint outputs and the last step's status. */
function runAction(inputs: Record<string, string>, event: { name: string; baseSha?: string }) {
  const action = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as Action;
  assert.equal(action.runs.using, 'composite');
  const resolvedInputs = Object.fromEntries(
    Object.entries(action.inputs).map(([k, v]) => [k, inputs[k] ?? v.default ?? '']),
  );
  const runnerTemp = mkdtempSync(join(tmp, 'runner-'));
  const steps: Record<string, { outputs: Record<string, string> }> = {};
  const context = () => ({
    inputs: resolvedInputs,
    runner: { temp: runnerTemp },
    steps,
    github: {
      event_name: event.name,
      event: event.baseSha ? { pull_request: { base: { sha: event.baseSha } } } : {},
    },
  });
  const uploaded: string[] = [];
  let status = -1;
  for (const step of action.runs.steps) {
    if (step.uses?.startsWith('actions/setup-node@')) {
      assert.equal(expand(step.with?.['node-version'] ?? '', context()), resolvedInputs['node-version']);
      continue;
    }
    if (step.uses?.startsWith('github/codeql-action/upload-sarif@')) {
      uploaded.push(join(fixture, expand(step.with?.sarif_file ?? '', context())));
      continue;
    }
    assert.equal(step.shell, 'bash', `${step.name} declares its shell`);
    assert.ok(
      step.run && !step.run.includes('${{'),
      `${step.name}: inputs reach the script through env only`,
    );
    const outputFile = join(runnerTemp, `output-${step.id ?? 'step'}`);
    writeFileSync(outputFile, '');
    const env: NodeJS.ProcessEnv = { ...gitEnv(), GITHUB_OUTPUT: outputFile };
    for (const name of Object.keys(env)) if (/^npm_/i.test(name)) delete env[name];
    env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expand(v, context());
    const script = join(runnerTemp, 'step.sh');
    writeFileSync(script, step.run);
    // GitHub runs `shell: bash` as `bash --noprofile --norc -eo pipefail {0}`.
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: fixture,
      env,
      encoding: 'utf8',
    });
    status = result.status ?? -1;
    if (step.id) {
      const outputs = Object.fromEntries(
        readFileSync(outputFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes('='))
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      steps[step.id] = { outputs };
      assert.equal(status, 0, `${step.name} failed: ${result.stderr}`);
    }
  }
  const lint = steps.lint;
  assert.ok(lint, 'action.yml has a step with id lint');
  return { lint: lint.outputs, uploaded, status };
}

function findingsIn(sarifFile: string): string[] {
  const log = JSON.parse(readFileSync(sarifFile, 'utf8'));
  assert.deepEqual(sarifProblems(log), []);
  return log.runs[0].results.map(
    (r: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
      r.locations[0]!.physicalLocation.artifactLocation.uri,
  );
}

describe('action.yml', () => {
  it('on a pull request: SARIF of the changed lines only, uploaded, and the job fails on the finding', () => {
    const run = runAction({ package: join(REPO, 'server'), paths: 'src' }, { name: 'pull_request', baseSha });
    assert.equal(run.lint['exit-code'], '1');
    assert.deepEqual(run.uploaded, [join(fixture, 'writev-lint.sarif')]);
    assert.deepEqual(findingsIn(run.uploaded[0]!), ['src/new.c']);
    assert.equal(run.status, 1, 'the Result step fails the job');
  });

  it('on a push: every finding; fail-on-findings false keeps the job green', () => {
    const run = runAction(
      { package: join(REPO, 'server'), paths: 'src', 'fail-on-findings': 'false', 'sarif-file': 'out.sarif' },
      { name: 'push' },
    );
    assert.deepEqual(findingsIn(join(fixture, 'out.sarif')).sort(), ['src/new.c', 'src/old.c']);
    assert.equal(run.status, 0);
  });

  it('installs the version this repository publishes by default', () => {
    const action = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as Action;
    assert.equal(action.inputs.package?.default, `writev-lint@${VERSION}`);
  });
});

describe('.pre-commit-hooks.yaml', () => {
  const preCommit = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
  it(
    'is a valid manifest for pre-commit itself (known keys and file types)',
    { skip: preCommit.status !== 0 && 'pre-commit is not installed (apt-get install pre-commit)' },
    () => {
      const result = spawnSync('pre-commit', ['validate-manifest', '.pre-commit-hooks.yaml'], {
        cwd: REPO,
        encoding: 'utf8',
      });
      assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
    },
  );

  // pre-commit's file types (the identify library) for the tags the hooks use.
  const TYPES: Record<string, string[]> = {
    c: ['.c', '.h'],
    ts: ['.ts'],
    tsx: ['.tsx'],
    javascript: ['.js', '.mjs', '.cjs'],
    jsx: ['.jsx'],
  };
  interface Hook {
    id: string;
    entry: string;
    language: string;
    additional_dependencies: string[];
    types_or: string[];
    args?: string[];
  }

  it('runs each hook as pre-commit does, on the staged files its types select', () => {
    const hooks = parse(readFileSync(join(REPO, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
    assert.deepEqual(
      hooks.map((h) => h.id),
      ['writev-lint', 'writev-lint-fix'],
    );
    // pre-commit's node environment has the hook's packages' bins on PATH: here, the workspace's.
    const env = {
      ...gitEnv(),
      PATH: `${join(REPO, 'node_modules', '.bin')}${delimiter}${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
    };
    for (const hook of hooks) {
      assert.equal(hook.language, 'node');
      assert.deepEqual(hook.additional_dependencies, [`writev-lint@${VERSION}`]);
      const dir = join(tmp, `hook-${hook.id}`);
      mkdirSync(dir);
      git(dir, 'init', '-q', '-b', 'main');
      writeFileSync(join(dir, 'staged.c'), HEADER + cFunction('staged'));
      writeFileSync(join(dir, 'notes.py'), 'print("not C")\n');
      git(dir, 'add', '.');
      const staged = git(dir, 'diff', '--cached', '--name-only').trim().split('\n');
      const files = staged.filter((f) => hook.types_or.some((t) => TYPES[t]?.includes(extname(f))));
      assert.deepEqual(files, ['staged.c']);
      const [command, ...entryArgs] = hook.entry.split(' ');
      const result = spawnSync(command!, [...entryArgs, ...(hook.args ?? []), ...files], {
        cwd: dir,
        env,
        encoding: 'utf8',
      });
      if (hook.id === 'writev-lint') {
        assert.equal(result.status, 1, result.stderr);
        assert.match(result.stdout, /^staged\.c:5:2: warning: 2 syscalls to fd can become one/);
      } else {
        assert.equal(result.status, 0, result.stderr);
        assert.match(readFileSync(join(dir, 'staged.c'), 'utf8'), /writev_or_die\(fd, iov, 2\);/);
      }
    }
  });
});
