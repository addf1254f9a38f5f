/**
 * vitest globalSetup of the unit project: `npm test` leaves the working tree as it found it. The
 * paths git lists as untracked or ignored are noted before the tests (after the build, which
 * makes dist/) and again after them; a path that appeared is a test writing into the tree
 * (screenshots, report folders) instead of a temporary folder, and fails the run by name.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Untracked and ignored paths (`??` and `!!` of git status), or undefined outside a git checkout. */
function leftPaths(): Set<string> | undefined {
  const status = spawnSync('git', ['status', '--porcelain', '--ignored'], { cwd: ROOT, encoding: 'utf8' });
  if (status.status !== 0) return undefined;
  return new Set(
    status.stdout
      .split('\n')
      .filter((line) => line.startsWith('?? ') || line.startsWith('!! '))
      .map((line) => line.slice(3)),
  );
}

export function setup(): () => void {
  const before = leftPaths();
  return () => {
    const after = leftPaths();
    if (!before || !after) return;
    const added = [...after].filter((p) => !before.has(p));
    if (!added.length) return;
    // vitest logs an error thrown here but still exits 0: the exit code is set by hand, as the process ends.
    console.error(`npm test left ${added.length} path(s) in the tree; write them to a temporary folder:\n  ${added.slice(0, 20).join('\n  ')}`);
    process.on('exit', () => {
      process.exitCode = 1;
    });
  };
}
