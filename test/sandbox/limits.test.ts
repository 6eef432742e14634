import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, parseSize, resolveLimits } from '../../src/sandbox/index.js';
import { parseDuration } from '../../src/util/duration.js';
import { ToolboxError } from '../../src/errors.js';

const MiB = 1024 * 1024;

describe('parseSize', () => {
  it.each([
    [1024, 1024],
    ['512KiB', 512 * 1024],
    ['256M', 256 * MiB],
    ['256mb', 256 * MiB],
    ['1G', 1024 * MiB],
    ['1.5g', 1536 * MiB],
    ['100', 100],
    ['64 k', 64 * 1024],
  ])('%s -> %d bytes', (input, bytes) => expect(parseSize(input)).toBe(bytes));
  it.each([['lots'], ['-1M'], ['1T'], [0], [-5], [''], ['1.2.3M']])('rejects %s', (input) =>
    expect(parseSize(input as string)).toBeUndefined(),
  );
});

describe('parseDuration', () => {
  it.each([
    [2, 2000],
    [0.5, 500],
    ['500ms', 500],
    ['10s', 10_000],
    ['2m', 120_000],
    ['1.5', 1500],
    ['1h', 3_600_000],
  ])('%s -> %d ms', (input, ms) => expect(parseDuration(input)).toBe(ms));
  it.each([['soon'], [0], ['-2s'], ['10 parsecs']])('rejects %s', (input) =>
    expect(parseDuration(input as string)).toBeUndefined(),
  );
});

describe('resolveLimits', () => {
  it('uses the documented defaults', () => {
    expect(resolveLimits(undefined, undefined)).toEqual({
      timeoutMs: 30_000,
      cpuSeconds: 30,
      memoryBytes: 512 * MiB,
      processes: 64,
      fileSizeBytes: 16 * MiB,
      openFiles: 256,
      outputBytes: MiB,
    });
    expect(resolveLimits(undefined, undefined)).toEqual(DEFAULT_LIMITS);
  });

  it('lets the contract override every limit', () => {
    const l = resolveLimits(
      { memory: '1G', cpu: 5, processes: 8, file_size: 1024, open_files: 32, output: '2M' },
      '45s',
    );
    expect(l).toEqual({
      timeoutMs: 45_000,
      cpuSeconds: 5,
      memoryBytes: 1024 * MiB,
      processes: 8,
      fileSizeBytes: 1024,
      openFiles: 32,
      outputBytes: 2 * MiB,
    });
  });

  it('raises the CPU limit with a longer timeout unless cpu is set', () => {
    expect(resolveLimits(undefined, 120).cpuSeconds).toBe(120);
    expect(resolveLimits({ cpu: 3 }, 120).cpuSeconds).toBe(3);
  });

  it('lets --timeout win over the contract', () => {
    expect(resolveLimits(undefined, 60, 500).timeoutMs).toBe(500);
  });

  it('rejects bad contract values with exit 3 and a bad --timeout with exit 2', () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return [(e as ToolboxError).code, (e as ToolboxError).exitCode];
      }
      return undefined;
    };
    expect(code(() => resolveLimits({ memory: 'lots' }, undefined))).toEqual(['invalid_sandbox_value', 3]);
    expect(code(() => resolveLimits(undefined, 'forever'))).toEqual(['invalid_sandbox_value', 3]);
    expect(code(() => resolveLimits({ processes: 0 }, undefined))).toEqual(['invalid_sandbox_value', 3]);
    expect(code(() => resolveLimits(undefined, undefined, -1))).toEqual(['invalid_timeout', 2]);
  });
});
