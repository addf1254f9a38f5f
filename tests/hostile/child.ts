/** The real binary in a child process that a test can watch and signal while it runs. */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';

const BIN = path.resolve('bin/conformance.js');

export interface Child {
  /** Resolves once stdout or stderr holds `text`. */
  waitFor(text: string | RegExp): Promise<void>;
  kill(signal: NodeJS.Signals): void;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

export function start(args: string[]): Child {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_')));
  const child = spawn('node', [BIN, ...args], { env, cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: { test: string | RegExp; resolve: () => void }[] = [];
  const seen = (test: string | RegExp) => (typeof test === 'string' ? (stdout + stderr).includes(test) : test.test(stdout + stderr));
  const check = () => {
    for (const w of waiters.splice(0)) seen(w.test) ? w.resolve() : waiters.push(w);
  };
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    check();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    check();
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return {
    waitFor: (test) =>
      new Promise<void>((resolve, reject) => {
        if (seen(test)) return resolve();
        waiters.push({ test, resolve });
        void exited.then(() => reject(new Error(`exited before "${String(test)}":\n${stdout}\n${stderr}`)));
      }),
    kill: (signal) => child.kill(signal),
    exited,
  };
}
