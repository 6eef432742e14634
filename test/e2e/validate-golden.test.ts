// Golden end-to-end scenarios for `toolbox validate` (Spectral-style): each folder under
// test/fixtures/validate/ is a small project; commands.json names the command lines to run.
// The real binary runs on a temp copy; exit status, stdout and stderr (normalized) must equal
// __golden__/<name>.txt. A missing golden is a failure; `npm run goldens` (scripts/update-goldens.mjs,
// refused under CI) is the one way to write them.
import { describe, expect, it } from 'vitest';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  mkdirSync,
  existsSync,
  realpathSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, spawnCli } from '../helpers.js';

const ROOT = join(REPO, 'test', 'fixtures', 'validate');
// Set only by scripts/update-goldens.mjs. Under CI a test run never writes what it then compares against.
const UPDATE = process.env.TOOLBOX_GOLDENS === 'write';
if (UPDATE && process.env.CI && process.env.CI !== 'false')
  throw new Error('TOOLBOX_GOLDENS=write is refused under CI: goldens are written on a developer machine');
const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

// Case-specific inputs too big to commit.
const GENERATED: Record<string, Record<string, () => string>> = {
  hostile: { 'tool_registry/huge.yaml': () => 'description: "' + 'x'.repeat(10 * 1024 * 1024) + '"\n' },
};

function normalize(s: string, dir: string): string {
  return s
    .split(dir)
    .join('<dir>')
    .split(`file://${dir}`)
    .join('file://<dir>')
    .replace(new RegExp(`"version": "${version.replace(/\./g, '\\.')}"`, 'g'), '"version": "<version>"')
    .replace(/\r\n/g, '\n');
}

describe('validate golden scenarios', () => {
  for (const name of readdirSync(ROOT).sort()) {
    const caseDir = join(ROOT, name);
    const commands = JSON.parse(readFileSync(join(caseDir, 'commands.json'), 'utf8')) as Record<string, string[]>;
    for (const [label, argv] of Object.entries(commands)) {
      it(`${name}: toolbox ${argv.join(' ')}`, async () => {
        const dir = realpathSync(mkdtempSync(join(tmpdir(), `toolbox-golden-${name}-`)));
        try {
          cpSync(caseDir, dir, { recursive: true, filter: (src) => !src.includes('__golden__') });
          for (const [rel, make] of Object.entries(GENERATED[name] ?? {})) writeFileSync(join(dir, rel), make());
          const r = await spawnCli(argv, { cwd: dir, env: { NO_COLOR: '1' } });
          const actual = `$ toolbox ${argv.join(' ')}\nexit: ${r.code}\n--- stdout\n${normalize(r.stdout, dir)}--- stderr\n${normalize(r.stderr, dir)}`;
          const golden = join(caseDir, '__golden__', `${label}.txt`);
          if (UPDATE) {
            mkdirSync(join(caseDir, '__golden__'), { recursive: true });
            writeFileSync(golden, actual);
          }
          expect(existsSync(golden), `missing golden ${golden}: write it with \`npm run goldens\``).toBe(true);
          expect(actual).toBe(readFileSync(golden, 'utf8'));
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  }
});
