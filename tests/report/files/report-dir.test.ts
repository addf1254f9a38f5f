import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureFolder, prepareReportDir } from '../../../src/report/files/report-dir.ts';
import { REPORT_DIR_FILES, REPORT_FILES } from '../../../src/report/files/write-reports.ts';
import { UsageError } from '../../../src/core/errors.ts';

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'conformance-report-dir-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const folder = (name: string) => {
  const dir = path.join(root, name);
  mkdirSync(dir);
  return dir;
};

/** The one line prepareReportDir refuses with. */
const refusal = async (dir: string): Promise<string> => {
  const error = await prepareReportDir(dir, REPORT_DIR_FILES).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  const message = (error as Error).message;
  expect(message.split('\n')).toHaveLength(1);
  expect(message).toMatch(/^--report-dir .* cannot be used: .*; choose another folder$/);
  return message;
};

describe('ensureFolder', () => {
  it('creates the missing levels one by one', async () => {
    const dir = path.join(root, 'a', 'b', 'c');
    expect(await ensureFolder(dir)).toBeUndefined();
    expect(readdirSync(path.join(root, 'a', 'b'))).toEqual(['c']);
    expect(await ensureFolder(dir)).toBeUndefined();
  });

  it('names the file that stands in the way', async () => {
    writeFileSync(path.join(root, 'plain'), '');
    expect(await ensureFolder(path.join(root, 'plain', 'x', 'y'))).toBe(`${path.join(root, 'plain')} is not a folder`);
  });

  it.runIf(process.platform === 'linux')('fails at once on a virtual file system', async () => {
    expect(await ensureFolder('/proc/self/x/y')).toMatch(/^cannot create \/proc\/self\/x: E[A-Z]+$/);
    expect(await ensureFolder('/sys/x')).toMatch(/^cannot create \/sys\/x: E[A-Z]+$/);
  });
});

describe('prepareReportDir', () => {
  it("removes the previous run's report files and nothing else", async () => {
    const dir = folder('previous');
    for (const name of [...REPORT_DIR_FILES, 'notes.txt', 'conformance.json.bak']) writeFileSync(path.join(dir, name), 'old');
    mkdirSync(path.join(dir, 'archive'));
    await prepareReportDir(dir, REPORT_DIR_FILES);
    expect(readdirSync(dir).sort()).toEqual(['archive', 'conformance.json.bak', 'notes.txt']);
  });

  it('refuses a report name that is a folder, a symbolic link or a FIFO, and removes nothing', async () => {
    const dir = folder('odd');
    writeFileSync(path.join(dir, REPORT_FILES.junit), 'old');
    mkdirSync(path.join(dir, REPORT_FILES.json));
    expect(await refusal(dir)).toContain('conformance.json there is a folder, not a report file');
    expect(readdirSync(dir)).toContain(REPORT_FILES.junit);

    rmSync(path.join(dir, REPORT_FILES.json), { recursive: true });
    symlinkSync(path.join(root, 'elsewhere.json'), path.join(dir, REPORT_FILES.json));
    expect(await refusal(dir)).toContain('conformance.json there is a symbolic link');
    rmSync(path.join(dir, REPORT_FILES.json));

    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [path.join(dir, REPORT_FILES.har)]);
      expect(await refusal(dir)).toContain('exchanges.har there is a FIFO');
    }
    expect(readdirSync(dir)).toContain(REPORT_FILES.junit);
  });

  it('refuses a path that is a file, and an empty path', async () => {
    const file = path.join(root, 'a-file');
    writeFileSync(file, 'mine');
    expect(await refusal(file)).toBe(`--report-dir ${file} cannot be used: ${file} is not a folder; choose another folder`);
    expect(await refusal(' ')).toContain('the path is empty');
  });

  it.runIf(process.platform === 'linux')('refuses a folder that cannot be written (the probe file)', async () => {
    expect(await refusal('/proc/self')).toMatch(/cannot be used: it cannot be written \(E[A-Z]+\)/);
  });

  it('quotes a path with a new line, so the refusal stays one line', async () => {
    const file = path.join(root, 'line\nbreak');
    writeFileSync(file, '');
    expect(await refusal(file)).toContain(JSON.stringify(file));
  });
});
